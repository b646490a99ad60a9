// The D-Bus names of quarry-store (DESIGN.md "D-Bus"); store/ipc/README.md has the wire details.
#pragma once

namespace quarry::ipc {

inline constexpr const char* kBusName = "org.quarry.Store1";
inline constexpr const char* kObjectPath = "/org/quarry/Store1";
inline constexpr const char* kResourcesInterface = "org.quarry.Store1.Resources";
inline constexpr const char* kSteroidsInterface = "org.quarry.Store1.Steroids";
inline constexpr const char* kStatusInterface = "org.quarry.Store1.Status";
inline constexpr const char* kBackupInterface = "org.quarry.Store1.Backup";

}  // namespace quarry::ipc
