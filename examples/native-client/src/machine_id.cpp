#include "ple/license_client.hpp"

#include <sodium.h>
#include <unistd.h>

#include <fstream>
#include <string>

namespace ple {

std::string machineInstanceId(const std::string& appId) {
    std::string machine;
    for (const char* path : {"/etc/machine-id", "/var/lib/dbus/machine-id"}) {
        std::ifstream file(path);
        if (file && std::getline(file, machine) && !machine.empty()) break;
        machine.clear();
    }
    if (machine.empty()) {
        char host[256] = {};
        if (gethostname(host, sizeof host - 1) == 0) machine = host;
    }
    if (sodium_init() < 0) return "ple-unknown";
    const std::string input = machine + '\n' + appId;
    unsigned char digest[16];
    crypto_generichash(digest, sizeof digest, reinterpret_cast<const unsigned char*>(input.data()), input.size(), nullptr, 0);
    char hex[sizeof digest * 2 + 1];
    sodium_bin2hex(hex, sizeof hex, digest, sizeof digest);
    return std::string("ple-") + hex;
}

}  // namespace ple
