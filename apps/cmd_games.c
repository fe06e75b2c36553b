/* cmd_games.c — `hoyle games`: the registry, its variants and parameters. */
#include <stdio.h>
#include <string.h>

#include "apps/cli.h"
#include "games/registry.h"

static const char help[] = "usage: hoyle games [--json]\n\n"
                           "List every registered game with its description, named variants and\n"
                           "parameters (key = default [range] help). Use a spec such as\n"
                           "'gobang(board=15,men=0)' wherever a GAME is expected.\n";

int cmd_games(int argc, char **argv)
{
    bool json = false;
    const cli_opt_t opts[] = {
        CLI_OPT_JSON(&json),
        CLI_OPT_END,
    };
    const cli_command_t command = {.name = "games", .help = help, .opts = opts};
    int rc = cli_parse(&command, argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    if (json) printf("{\"games\":[");
    for (int i = 0; game_registry[i]; i++) {
        const game_entry_t *e = game_registry[i];
        if (json) {
            printf("%s{\"name\":", i ? "," : "");
            json_escape(stdout, e->name);
            printf(",\"description\":");
            json_escape(stdout, e->description);
            printf(",\"variants\":[");
            for (int v = 0; e->variants[v]; v++) {
                if (v) putchar(',');
                json_escape(stdout, e->variants[v]);
            }
            printf("],\"params\":[");
            for (int p = 0; e->params && e->params[p].key; p++) {
                const param_def_t *d = &e->params[p];
                printf("%s{\"key\":", p ? "," : "");
                json_escape(stdout, d->key);
                printf(",\"default\":");
                json_escape(stdout, d->def ? d->def : "");
                printf(",\"help\":");
                json_escape(stdout, d->help ? d->help : "");
                printf("}");
            }
            printf("]}");
            continue;
        }
        char desc[4096];
        printf("%s — %s\n", e->name, e->description);
        printf("  variants:");
        for (int v = 0; e->variants[v]; v++) printf(" %s", e->variants[v]);
        printf("\n");
        if (params_describe(e->params, desc, sizeof desc) > 0) printf("  parameters:\n%s", desc);
        printf("\n");
    }
    if (json) printf("]}\n");
    return EXIT_OK;
}
