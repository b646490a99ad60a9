#include "extract/service/extract_config.h"

namespace quarry::extract::service {

Result<ExtractConfig> LoadExtractConfig(const std::filesystem::path& file) {
  auto loaded = miner::LoadConfig(file, miner::UserDirs::FromEnvironment());
  if (!loaded) return std::move(loaded).error();
  ExtractConfig config;
  config.cpu_percent = loaded->config.cpu_percent;
  config.text_allowlist = std::move(loaded->config.text_allowlist);
  for (std::string& warning : loaded->warnings) {
    if (warning.starts_with("throttle.") || warning.starts_with("extract.")) {
      config.warnings.push_back(std::move(warning));
    }
  }
  return config;
}

}  // namespace quarry::extract::service
