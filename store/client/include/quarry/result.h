// quarry::Result<T> and quarry::Error, the error type of every public call.
#pragma once

#include "store/common/result.h"  // IWYU pragma: export
