# models/enet and models/traffic: the ENET MAC, the link-side traffic source and sink.
# Appends to the models library and to the model-tier test runner.
