// The one list of built-in modules (ARCHITECTURE.md §7: explicit registration, no
// self-registering statics). Order matters only for equal matches: the first module that
// names a MIME type exactly wins.
#include "extract/core/module.h"
#include "extract/modules/audio_module.h"
#include "extract/modules/html_module.h"
#include "extract/modules/image_module.h"
#include "extract/modules/office_module.h"
#include "extract/modules/pdf_module.h"
#include "extract/modules/playlist_module.h"
#include "extract/modules/text_module.h"

namespace quarry::extract {

Registry BuiltinRegistry() {
  Registry registry;
  registry.Register(MakePdfModule());
  registry.Register(MakeAudioModule());
  registry.Register(MakeHtmlModule());
  registry.Register(MakeImageModule());
  registry.Register(MakeOfficeModule());
  registry.Register(MakePlaylistModule());
  registry.Register(MakeTextModule());
  return registry;
}

}  // namespace quarry::extract
