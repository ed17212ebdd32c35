/*
 * oacl-cc main: the stages in order (see oacl_cc.h).
 */
#include "oacl_cc.h"

int main(int argc, char **argv)
{
    atexit(oacl_at_exit);
    oacl_parse_args(argc, argv);
    oacl_finish_options();
    oacl_make_tmpdir();
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
        signal(sigs[i], oacl_on_signal);
    if (g_opt.keep)
        oacl_note("temporary files kept in %s", g_tmpdir);
    if (g_opt.verbose)
        fprintf(stderr, "oacl-cc: SoC %s (arch %u), cc %s, c++ %s\n", g_opt.soc_profile->name,
                g_opt.soc_profile->npu_arch, g_opt.cc, g_opt.cxx);
    if (!oacl_rewrite_all())
        return 1;
    bool ok;
    switch (g_opt.emit) {
    case OACL_EMIT_SOURCE:
        ok = true;
        break;
    case OACL_EMIT_OBJECT:
        ok = oacl_build_object();
        break;
    case OACL_EMIT_BINARY:
    default:
        ok = oacl_scan_all() && oacl_build();
        break;
    }
    if (ok && g_opt.depfile)
        oacl_write_depfile();
    return ok ? 0 : 1;
}
