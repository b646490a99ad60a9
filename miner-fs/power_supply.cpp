#include "miner-fs/power_supply.h"

#include <fstream>
#include <string>

namespace quarry::miner {
namespace {

std::string FirstLine(const std::filesystem::path& file) {
  std::ifstream stream(file);
  std::string line;
  std::getline(stream, line);
  return line;
}

}  // namespace

bool IsOnBattery(const std::filesystem::path& power_supply_dir) {
  std::error_code error;
  bool has_battery = false;
  bool is_mains_online = false;
  for (const auto& supply : std::filesystem::directory_iterator(power_supply_dir, error)) {
    const std::string type = FirstLine(supply.path() / "type");
    if (type == "Battery" && FirstLine(supply.path() / "present") != "0") has_battery = true;
    if ((type == "Mains" || type == "USB") && FirstLine(supply.path() / "online") == "1") {
      is_mains_online = true;
    }
  }
  return has_battery && !is_mains_online;
}

}  // namespace quarry::miner
