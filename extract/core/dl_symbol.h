// Typed dlsym() for libraries the extractor loads only when a file needs them (libmagic, ICU).
#pragma once

#include <dlfcn.h>

namespace quarry::extract {

// Sets `function` to `symbol` of `library`, or to nullptr when the library lacks it.
template <typename F>
void BindSymbol(void* library, const char* symbol, F& function) {
  function = reinterpret_cast<F>(dlsym(library, symbol));
}

}  // namespace quarry::extract
