// The worker's sandbox (issue 6): resource limits and a libseccomp filter, entered by the
// worker process itself before it reads its first file.
//
// What the filter denies (the call fails with EACCES/EPERM; nothing is killed, so a library
// that probes — TagLib opens read-write, then read-only — keeps working):
//   - the network: socket, socketpair, connect, bind, listen, accept, accept4;
//   - writing files: open/openat/creat with O_WRONLY, O_RDWR, O_CREAT or O_TRUNC, openat2,
//     truncate, and every call that changes the directory tree or metadata (unlink, rename,
//     mkdir, rmdir, link, symlink, mknod, chmod, chown, utimes, xattrs);
//   - running anything else: execve, execveat, ptrace, process_vm_writev.
// What seccomp cannot express: it sees syscall arguments, never the path behind a pointer, so
// "writes only inside the worker's temp dir" cannot be allowed selectively; the filter is
// stricter and forbids creating or opening any file for writing at all (modules write nothing).
// Descriptors open before the filter (the pipe to the service, stderr) stay writable, and
// write() on them is allowed. Limits: RLIMIT_AS (memory), RLIMIT_FSIZE 0 (no file can grow
// even through an inherited descriptor), RLIMIT_CORE 0, PR_SET_NO_NEW_PRIVS.
// Thread-safety: call once, from the worker's only thread, before starting any other.
#pragma once

#include <cstdint>

#include "store/common/result.h"

namespace quarry::extract::service {

// Enters the sandbox for the rest of the process's life. Errors name the step that failed.
Result<void> EnterWorkerSandbox(uint64_t memory_limit_bytes);

// Idle scheduling for this process and its future children: nice 19, SCHED_IDLE-like I/O
// (ioprio class idle), so extraction never starves the desktop. Best effort: a refusal is
// logged by the caller, not fatal.
Result<void> LowerPriority();

}  // namespace quarry::extract::service
