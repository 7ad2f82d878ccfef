/* accelscope: what a machine's crypto acceleration is worth. The entry point, the one file
 * that knows every layer: the commands of src/, the TUI of ui/; backends arrive by linking. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "spawn.h"
#include "ui.h"
#include "worker.h"

/* accelscope demo [--against FILE.csv] */
static int demo(int argc, char **argv)
{
    if (argc == 2)
        return ui_main(1);
    if (argc == 4 && !strcmp(argv[2], "--against"))
        return ui_demo_against(argv[3]);
    if (argc == 3 && !strncmp(argv[2], "--against=", 10) && argv[2][10])
        return ui_demo_against(argv[2] + 10);
    fprintf(stderr, "accelscope demo: %s '%s'; accepted: --against FILE.csv (a saved run "
            "beside this board)\n", argc == 3 && !strcmp(argv[2], "--against")
            ? "option needs a value:" : "unexpected argument", argv[argc == 3 ? 2 : argc - 1]);
    return EXIT_USAGE;
}

int main(int argc, char **argv)
{
    spawn_stdio_init();
    if (argc >= 2 && !strcmp(argv[1], "__worker"))
        return worker_main(argc - 1, argv + 1);
    if (argc < 2)
        return ui_main(0);
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        cmd_usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
        printf("accelscope %s\n", ACCELSCOPE_VERSION);
        return 0;
    }
    if (!strcmp(cmd, "info"))
        return cmd_info(argc - 1, argv + 1);
    if (!strcmp(cmd, "compare"))
        return cmd_compare(argc - 1, argv + 1);
    if (!strcmp(cmd, "run"))
        return cmd_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "demo"))
        return demo(argc, argv);
    fprintf(stderr, "accelscope: unknown command '%s'; accepted: info, run, compare, demo, --help, --version "
                    "(no command opens the TUI)\n", cmd);
    return EXIT_USAGE;
}
