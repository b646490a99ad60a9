// Whether the machine runs on battery, from /sys/class/power_supply (issue 5: "pause on
// battery ... configurable"). On battery means: a battery is present and no mains adapter is
// online. A desktop without a battery, or a system without the folder, is never on battery.
// Thread-safety: pure reads of sysfs; any thread.
#pragma once

#include <filesystem>

namespace quarry::miner {

bool IsOnBattery(const std::filesystem::path& power_supply_dir = "/sys/class/power_supply");

}  // namespace quarry::miner
