// The one list of built-in modules (ARCHITECTURE.md §7: explicit registration, no
// self-registering statics), each a plugin (plugin.h). Order matters only for equal matches:
// the first module that names a MIME type exactly wins. The lists repeat what each module's
// mime_types() and extensions() return, so the registry can pick a module without loading any
// plugin; tests/extract/plugin_test.cpp loads every plugin and fails when they differ.
#include "extract/core/plugin.h"

namespace quarry::extract {

const std::vector<PluginSpec>& BuiltinPluginSpecs() {
  static const std::vector<PluginSpec> specs = {
      {"pdf", "quarry-extract-pdf.so", {"application/pdf", "application/x-pdf"}, {"pdf"}},
      {"audio",
       "quarry-extract-audio.so",
       {"audio/mpeg", "audio/flac", "audio/x-flac", "audio/ogg", "application/ogg", "audio/opus",
        "audio/mp4", "audio/x-m4a", "audio/x-wav", "audio/wav", "audio/*"},
       {"mp3", "flac", "ogg", "oga", "opus", "m4a", "wav"}},
      {"html",
       "quarry-extract-html.so",
       {"text/html", "application/xhtml+xml"},
       {"html", "htm", "xhtml", "shtml"}},
      {"image",
       "quarry-extract-image.so",
       {"image/*"},
       {"jpg", "jpeg", "jpe", "png", "tif", "tiff", "webp", "gif", "bmp", "psd", "jp2", "cr2",
        "nef", "orf", "arw", "rw2", "pef", "srw", "dng", "raf", "crw", "mrw", "exv"}},
      {"office",
       "quarry-extract-office.so",
       {"application/vnd.oasis.opendocument.text",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document"},
       {"odt", "docx"}},
      {"playlist",
       "quarry-extract-playlist.so",
       {"audio/x-mpegurl", "audio/mpegurl", "application/vnd.apple.mpegurl",
        "application/x-mpegurl", "audio/x-scpls"},
       {"m3u", "m3u8", "pls"}},
      {"text",
       "quarry-extract-text.so",
       {"text/*", "application/json", "application/xml", "application/x-shellscript",
        "application/javascript"},
       {"txt",  "text", "log", "md",  "markdown", "csv",  "tsv", "json", "xml",   "yaml",
        "yml",  "toml", "ini", "c",   "h",        "cpp",  "cc",  "cxx",  "hpp",   "hh",
        "py",   "js",   "mjs", "ts",  "rs",       "java", "sh",  "bash", "go",    "rb",
        "pl",   "php",  "cs",  "kt",  "swift",    "lua",  "sql", "css",  "cmake"}},
  };
  return specs;
}

}  // namespace quarry::extract
