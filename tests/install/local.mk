# tests/install/: the installed fecsim with the trees out of reach
# (check-install.sh: DESTDIR install, moved prefix, regress against the
# installed baselines, man, completion, the example VP against fecsim.pc).
# About a minute; not part of make check (.ci/run runs it).
.PHONY: check-install
check-install: all
	abs_top_srcdir='$(abs_top_srcdir)' abs_top_builddir='$(abs_top_builddir)' prefix='$(prefix)' \
		MAKE='$(MAKE)' $(SHELL) $(srcdir)/tests/install/check-install.sh
EXTRA_DIST += tests/install/check-install.sh

# make installcheck (also run by make distcheck): the installed program, as
# installed, finds its data there and runs the built-in default scenario.
installcheck-local:
	@t=`mktemp -d "$${TMPDIR:-/tmp}/fecsim-installcheck.XXXXXX"` && cd "$$t" && \
	exe='$(DESTDIR)$(bindir)/fecsim' && data=`cd '$(DESTDIR)$(pkgdatadir)' && pwd -P` && \
	env -u FECSIM_DATADIR FECSIM_CACHE="$$t/cache" "$$exe" --version | grep -qx "data: $$data" && \
	env -u FECSIM_DATADIR FECSIM_CACHE="$$t/cache" "$$exe" run -q -o scenario.duration=2ms --run-dir run && \
	test -s run/stats.json && echo "installcheck: $$exe runs with its data in $$data"; \
	st=$$?; rm -rf "$$t"; exit $$st
