# models/enet and models/traffic: the ENET MAC, the link-side traffic source and sink.
# Appends to the models library and to the model-tier test runner.
models_libmodels_a_SOURCES += \
	models/enet/enet_regs.h \
	models/enet/enet.h models/enet/enet.cc
models_libmodels_a_SOURCES += \
	models/traffic/traffic.h models/traffic/traffic.cc \
	models/traffic/peer.h models/traffic/peer.cc
# Test sources: tests/local.mk (included after this file) appends them to the
# model-tier runner; automake rejects += before the runner's first '='.
ENET_TEST_SOURCES = tests/models/enet_tb.h \
	tests/models/enet_regs.cc tests/models/enet_rx.cc tests/models/enet_tx.cc tests/models/traffic.cc
