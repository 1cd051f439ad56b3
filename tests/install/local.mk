# tests/install/: the installed fecsim with the trees out of reach
# (check-install.sh: DESTDIR install, moved prefix, regress against the
# installed baselines, man, completion, the example VP against fecsim.pc).
# About a minute; not part of make check (.ci/run runs it).
.PHONY: check-install
check-install: all
	abs_top_srcdir='$(abs_top_srcdir)' abs_top_builddir='$(abs_top_builddir)' prefix='$(prefix)' \
		MAKE='$(MAKE)' $(SHELL) $(srcdir)/tests/install/check-install.sh
EXTRA_DIST += tests/install/check-install.sh
