/* cmd_games.c — `hoyle games`: the registry, its variants and parameters. */
#include <stdio.h>
#include <string.h>

#include "apps/cli.h"
#include "games/registry.h"

static const char help[] = "usage: hoyle games [--json]\n\n"
                           "List every registered game with its description, named variants and\n"
                           "parameters (key = default [range] help). Use a spec such as\n"
                           "'gobang(board=15,men=0)' wherever a GAME is expected.\n";

/* Exit code: always EXIT_OK after a successful parse (the registry is
 * static, nothing here can fail but usage). */
int cmd_games(int argc, char **argv)
{
    bool json = false;
    const char *markdown = NULL;
    const cli_opt_t opts[] = {
        CLI_OPT_JSON(&json),
        CLI_OPT("--markdown", &markdown, "GAME",
                "GAME's parameters as the docs' table (docs/games/GAME.md)"),
        CLI_OPT_END,
    };
    const cli_command_t command = {.name = "games", .help = help, .opts = opts};
    int rc = cli_parse(&command, argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    if (markdown) {
        static char table[16384];
        const game_entry_t *e = game_registry_find(markdown);
        if (e == NULL) return cli_usage_error("games", "unknown game '%s'", markdown);
        if (params_markdown(e->params, "", table, sizeof table) < 0)
            return cli_fail("games", EXIT_FAILED);
        fputs(table, stdout);
        return EXIT_OK;
    }
    json_t j;
    if (json) {
        json_begin(&j, stdout);
        json_open(&j, "games", '[');
    }
    for (int i = 0; game_registry[i]; i++) {
        const game_entry_t *e = game_registry[i];
        if (json) {
            json_open(&j, NULL, '{');
            json_str(&j, "name", e->name);
            json_str(&j, "description", e->description);
            json_open(&j, "variants", '[');
            for (int v = 0; e->variants[v]; v++) json_str(&j, NULL, e->variants[v]);
            json_close(&j);
            params_json(&j, "params", e->params);
            json_close(&j);
            continue;
        }
        /* Parameter descriptions are one line each; a game whose list does not
         * fit 4 KiB prints its variants only. */
        char desc[4096];
        printf("%s — %s\n", e->name, e->description);
        printf("  variants:");
        for (int v = 0; e->variants[v]; v++) printf(" %s", e->variants[v]);
        printf("\n");
        if (params_describe(e->params, desc, sizeof desc) > 0) printf("  parameters:\n%s", desc);
        printf("\n");
    }
    if (json) json_end(&j);
    return EXIT_OK;
}
