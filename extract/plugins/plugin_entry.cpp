// The entry of one extractor plugin (core/plugin.h): built once per module family, with
// QUARRY_EXTRACT_PLUGIN_FACTORY naming the module's factory (MakePdfModule …). plugin.map
// keeps this the plugin's only exported symbol.
#include "extract/core/plugin.h"
#include "extract/modules/audio_module.h"
#include "extract/modules/html_module.h"
#include "extract/modules/image_module.h"
#include "extract/modules/office_module.h"
#include "extract/modules/pdf_module.h"
#include "extract/modules/playlist_module.h"
#include "extract/modules/text_module.h"

extern "C" quarry::extract::Module* quarry_extract_module_v2() {
  static_assert(std::is_same_v<decltype(&quarry_extract_module_v2), quarry::extract::PluginEntry>);
  return quarry::extract::QUARRY_EXTRACT_PLUGIN_FACTORY().release();
}
