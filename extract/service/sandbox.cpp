#include "extract/service/sandbox.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <seccomp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

namespace quarry::extract::service {
namespace {

// Syscalls denied outright: network, tree and metadata changes, running other programs.
constexpr int kDenied[] = {
    SCMP_SYS(socket),     SCMP_SYS(socketpair), SCMP_SYS(connect),      SCMP_SYS(bind),
    SCMP_SYS(listen),     SCMP_SYS(accept),     SCMP_SYS(accept4),      SCMP_SYS(openat2),
    SCMP_SYS(creat),      SCMP_SYS(truncate),   SCMP_SYS(unlink),       SCMP_SYS(unlinkat),
    SCMP_SYS(rename),     SCMP_SYS(renameat),   SCMP_SYS(renameat2),    SCMP_SYS(mkdir),
    SCMP_SYS(mkdirat),    SCMP_SYS(rmdir),      SCMP_SYS(link),         SCMP_SYS(linkat),
    SCMP_SYS(symlink),    SCMP_SYS(symlinkat),  SCMP_SYS(mknod),        SCMP_SYS(mknodat),
    SCMP_SYS(chmod),      SCMP_SYS(fchmod),     SCMP_SYS(fchmodat),     SCMP_SYS(chown),
    SCMP_SYS(fchown),     SCMP_SYS(lchown),     SCMP_SYS(fchownat),     SCMP_SYS(utimes),
    SCMP_SYS(utimensat),  SCMP_SYS(futimesat),  SCMP_SYS(setxattr),     SCMP_SYS(lsetxattr),
    SCMP_SYS(fsetxattr),  SCMP_SYS(removexattr), SCMP_SYS(lremovexattr), SCMP_SYS(fremovexattr),
    SCMP_SYS(execve),     SCMP_SYS(execveat),   SCMP_SYS(ptrace),       SCMP_SYS(process_vm_writev),
};

// Open flags that mean writing; each gets its own rule (a rule's comparisons are ANDed).
constexpr uint64_t kWriteFlags[] = {O_WRONLY, O_RDWR, O_CREAT, O_TRUNC};

struct FilterDeleter {
  void operator()(void* filter) const { seccomp_release(filter); }
};

Error SeccompError(const char* step, int rc) {
  return Error(Errc::kIo, fmt::format("worker sandbox: seccomp {}: {}", step, std::strerror(-rc)));
}

Result<void> AddRules(scmp_filter_ctx filter) {
  for (const int syscall_number : kDenied) {
    if (syscall_number < 0) continue;  // not on this architecture (e.g. no open() on arm64)
    const int rc = seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), syscall_number, 0);
    if (rc != 0) return SeccompError("rule", rc);
  }
  for (const uint64_t flag : kWriteFlags) {
    int rc = seccomp_rule_add(filter, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(open), 1,
                              SCMP_A1(SCMP_CMP_MASKED_EQ, flag, flag));
    if (rc == 0) {
      rc = seccomp_rule_add(filter, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(openat), 1,
                            SCMP_A2(SCMP_CMP_MASKED_EQ, flag, flag));
    }
    if (rc != 0) return SeccompError("open rule", rc);
  }
  return {};
}

Result<void> SetLimit(int resource, rlim_t value, const char* name) {
  const rlimit limit{value, value};
  if (setrlimit(resource, &limit) != 0) {
    return Error(Errc::kIo, fmt::format("worker sandbox: setrlimit({}): {}", name, std::strerror(errno)));
  }
  return {};
}

}  // namespace

Result<void> EnterWorkerSandbox(uint64_t memory_limit_bytes) {
  QUARRY_TRY(SetLimit(RLIMIT_AS, static_cast<rlim_t>(memory_limit_bytes), "RLIMIT_AS"));
  QUARRY_TRY(SetLimit(RLIMIT_FSIZE, 0, "RLIMIT_FSIZE"));
  QUARRY_TRY(SetLimit(RLIMIT_CORE, 0, "RLIMIT_CORE"));
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    return Error(Errc::kIo, fmt::format("worker sandbox: no_new_privs: {}", std::strerror(errno)));
  }
  const std::unique_ptr<void, FilterDeleter> filter(seccomp_init(SCMP_ACT_ALLOW));
  if (!filter) return Error(Errc::kIo, "worker sandbox: seccomp_init failed");
  QUARRY_TRY(AddRules(filter.get()));
  if (const int rc = seccomp_load(filter.get()); rc != 0) return SeccompError("load", rc);
  return {};
}

Result<void> LowerPriority() {
  if (setpriority(PRIO_PROCESS, 0, 19) != 0) {
    return Error(Errc::kIo, fmt::format("cannot lower the CPU priority: {}", std::strerror(errno)));
  }
  // linux/ioprio.h: class idle (3) in the top bits, who = IOPRIO_WHO_PROCESS (1), 0 = self.
  constexpr int kIoprioClassIdle = 3;
  constexpr int kIoprioClassShift = 13;
  constexpr int kIoprioWhoProcess = 1;
  if (syscall(SYS_ioprio_set, kIoprioWhoProcess, 0, kIoprioClassIdle << kIoprioClassShift) != 0) {
    return Error(Errc::kIo, fmt::format("cannot lower the I/O priority: {}", std::strerror(errno)));
  }
  return {};
}

}  // namespace quarry::extract::service
