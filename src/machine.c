#include "machine.h"

#include <stdio.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include "cpu.h"

const struct machine *machine_get(void)
{
    static struct machine m;
    static int done;
    if (done)
        return &m;
    done = 1;
    if (gethostname(m.host, sizeof m.host - 1))
        snprintf(m.host, sizeof m.host, "unknown");
    const struct cpu_info *c = cpu_get();
    if (c->codename[0])
        snprintf(m.cpu, sizeof m.cpu, "%.100s (%.50s)", c->brand, c->codename);
    else
        snprintf(m.cpu, sizeof m.cpu, "%s", c->brand[0] ? c->brand : c->arch);
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(m.kernel, sizeof m.kernel, "%s", u.release);
    snprintf(m.openssl, sizeof m.openssl, "%s", OpenSSL_version(OPENSSL_VERSION));
    return &m;
}
