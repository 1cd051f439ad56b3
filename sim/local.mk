# sim/: the fecsim command line tool and its scenario/results machinery.
# libsim.a holds everything but main(), so the unit tests link the loader,
# the unit parser and the writers directly.
noinst_LIBRARIES += sim/libsim.a
sim_libsim_a_CXXFLAGS = $(AM_CXXFLAGS) $(GLIB_CFLAGS) $(JSONGLIB_CFLAGS) -DFECSIM_GNUPLOT='"$(GNUPLOT)"'
sim_libsim_a_SOURCES = \
	sim/soc.h sim/soc.cc \
	sim/config/text.h sim/config/soc_config.h \
	sim/config/units.h sim/config/units.cc \
	sim/config/registry.h sim/config/registry.cc \
	sim/config/scenario.h sim/config/scenario.cc \
	sim/config/scenario_text.h sim/config/scenario_text.cc \
	sim/config/scenario_read.cc sim/config/scenario_resolve.cc sim/config/scenario_dump.cc \
	sim/config/did_you_mean.h sim/config/did_you_mean.cc \
	sim/config/docs.h sim/config/docs.cc \
	sim/results/results.h \
	sim/results/json.h sim/results/json.cc \
	sim/results/run_dir.h sim/results/run_dir.cc \
	sim/results/stats_files.h sim/results/stats_files.cc \
	sim/results/summary.h sim/results/summary.cc sim/results/summary_metrics.def \
	sim/results/progress.h sim/results/progress.cc \
	sim/results/sweep.h sim/results/sweep.cc \
	sim/results/plot.h sim/results/plot.cc \
	sim/results/report.h sim/results/report.cc \
	sim/results/regress.h sim/results/regress.cc sim/results/regress_report.cc \
	sim/cli/commands.h sim/cli/cli_common.cc sim/cli/job_pool.h sim/cli/job_pool.cc \
	sim/cli/cmd_run.cc sim/cli/cmd_sweep.cc sim/cli/cmd_plot.cc sim/cli/cmd_report.cc \
	sim/cli/regress_baseline.h sim/cli/regress_baseline.cc sim/cli/cmd_regress.cc
nodist_sim_libsim_a_SOURCES = sim/builtin_scenarios.h sim/version.h
EXTRA_DIST += $(wildcard $(srcdir)/sim/*/*.def)

SIM_LIBS = sim/libsim.a $(KHOST_LIBS) $(MODELS_LIBS) $(JSONGLIB_LIBS) $(GLIB_LIBS) -ldl

bin_PROGRAMS += sim/fecsim
sim_fecsim_SOURCES = sim/cli/main.cc
sim_fecsim_CXXFLAGS = $(AM_CXXFLAGS) $(GLIB_CFLAGS) $(JSONGLIB_CFLAGS)
sim_fecsim_LDFLAGS = $(DRIVER_LINK)
sim_fecsim_LDADD = $(SIM_LIBS)
sim_fecsim_DEPENDENCIES = drivers/libshim.a sim/libsim.a drivers/libkhost.a models/libmodels.a

# The scenarios compiled into fecsim: the default and everything it includes,
# and the default regress suite's tolerances (used for scenarios without a suite.ini).
BUILTIN_SCENARIOS = default.ini imx6q/copybreak-stock-idle.ini imx6q/copybreak-common.ini \
	imx6q/calibration-workload.ini profiles/imx6q.ini \
	regress/suite.ini
sim/builtin_scenarios.h: $(BUILTIN_SCENARIOS:%=$(srcdir)/scenarios/%) $(srcdir)/sim/embed-scenarios.sh
	$(AM_V_GEN)$(MKDIR_P) sim && $(SHELL) $(srcdir)/sim/embed-scenarios.sh $(srcdir)/scenarios \
		$(BUILTIN_SCENARIOS) > $@.tmp && mv $@.tmp $@

# Git revision at build time; rewritten only when it changes.
sim/version.h: FORCE
	@rev=`cd $(srcdir) && git describe --always --dirty 2>/dev/null || echo unknown`; \
	echo "#define FECSIM_GIT_REVISION \"$$rev\"" > $@.tmp; \
	if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
.PHONY: FORCE
FORCE:

BUILT_SOURCES += sim/builtin_scenarios.h sim/version.h
# BUILT_SOURCES is made first only for all, check and install; a direct
# `make sim/fecsim` on a fresh tree needs the objects that include them to say so.
sim/cli/libsim_a-cli_common.$(OBJEXT): sim/version.h
sim/config/libsim_a-scenario.$(OBJEXT): sim/builtin_scenarios.h
CLEANFILES += sim/builtin_scenarios.h sim/version.h
EXTRA_DIST += sim/embed-scenarios.sh results/baselines

.PHONY: demo run docs regress
demo: bench/demo_sync
	./bench/demo_sync

# The built-in default scenario, end to end.
run: sim/fecsim
	./sim/fecsim run

# The default regression suite (scenarios/regress) against the checked-in
# baselines, with the driver as it is in this tree: exit status 1 if anything
# regressed. Record new baselines with: ./sim/fecsim regress --update-baseline
regress: sim/fecsim
	./sim/fecsim regress --baseline $(srcdir)/results/baselines/imx6q $(srcdir)/scenarios/regress

# Regenerate the docs that come from the parameter and statistics tables.
docs: sim/fecsim
	$(AM_V_GEN)./sim/fecsim list-params --markdown > $(srcdir)/docs/scenario-format.md && \
	$(MKDIR_P) $(srcdir)/docs/models && \
	for g in `./sim/fecsim list-params --markdown --names`; do \
		./sim/fecsim list-params --markdown $$g > $(srcdir)/docs/models/$$g.md || exit 1; \
	done

# Man pages, one per command, made by help2man from the --help texts
# (sim/make-man.sh), and the bash completion made from --help and
# list-params (sim/gen-completion.sh): both from the program just built.
FECSIM_COMMANDS = run check sweep collect plot regress list-params
man_MANS = man/fecsim.1 $(FECSIM_COMMANDS:%=man/fecsim-%.1)
man/fecsim.1: sim/fecsim $(srcdir)/sim/make-man.sh
	$(AM_V_GEN)$(MKDIR_P) man && $(SHELL) $(srcdir)/sim/make-man.sh '$(HELP2MAN)' ./sim/fecsim $(VERSION) \
		'$(docdir)' fecsim $@
man/fecsim-%.1: sim/fecsim $(srcdir)/sim/make-man.sh
	$(AM_V_GEN)$(MKDIR_P) man && $(SHELL) $(srcdir)/sim/make-man.sh '$(HELP2MAN)' ./sim/fecsim $(VERSION) \
		'$(docdir)' $* $@
bashcompletion_DATA = completion/fecsim
completion/fecsim: sim/fecsim $(srcdir)/sim/gen-completion.sh
	$(AM_V_GEN)$(MKDIR_P) completion && $(SHELL) $(srcdir)/sim/gen-completion.sh ./sim/fecsim > $@.tmp && \
		mv $@.tmp $@
CLEANFILES += $(man_MANS) completion/fecsim
EXTRA_DIST += sim/make-man.sh sim/gen-completion.sh

# The documentation, under $(docdir) as in the source tree.
doc_DATA = README.md
nobase_doc_DATA = $(wildcard $(srcdir)/docs/*.md $(srcdir)/docs/models/*.md)
