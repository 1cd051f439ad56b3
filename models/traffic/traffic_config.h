// models/traffic/traffic_config.h: configuration of the link partner's traffic source
// ([traffic] group; table models/traffic/traffic_params.def). Plain: no SystemC.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "common/params.h"

namespace models::traffic {

enum traffic_mode : uint32_t { MODE_CONSTANT = 0, MODE_BURST = 1, MODE_POISSON = 2, MODE_PCAP = 3 };
enum size_mode : uint32_t { SIZE_FIXED = 0, SIZE_LIST = 1, SIZE_UNIFORM = 2 };
enum pcap_timing : uint32_t { PCAP_FILE_TIMING = 0, PCAP_BACK_TO_BACK = 1 };

struct traffic_config {
#define P FEC_PARAM_STRUCT_MEMBER
#include "traffic/traffic_params.def"
#undef P
    // String and list values are not supported by models/common/params.h; the
    // scenario loader fills these two directly.
    std::vector<uint32_t> size_list;  // frame sizes incl. FCS for size_mode=list, cycled
    std::string pcap_file;            // file to replay for mode=pcap (frames without FCS)
};
extern const param_table traffic_param_table;

// [peer] group (models/traffic/peer.h; table models/traffic/peer_params.def).
struct peer_config {
#define P FEC_PARAM_STRUCT_MEMBER
#include "traffic/peer_params.def"
#undef P
};
extern const param_table peer_param_table;

} // namespace models::traffic
