# tests/slurm/: a sweep on a Slurm cluster of one node that the test starts
# itself (munged, slurmctld, slurmd on this host), run by the installed
# fecsim with the trees out of reach (check-slurm.sh says what it checks).
# Needs root and the Debian packages slurm-wlm and munge, else it skips,
# saying why. About a minute; not part of make check (.ci/run runs it).
.PHONY: check-slurm
check-slurm: all
	abs_top_srcdir='$(abs_top_srcdir)' abs_top_builddir='$(abs_top_builddir)' prefix='$(prefix)' \
		MAKE='$(MAKE)' $(SHELL) $(srcdir)/tests/slurm/check-slurm.sh
EXTRA_DIST += tests/slurm/check-slurm.sh
