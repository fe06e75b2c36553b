/* cmd_agents.c — `hoyle agents`: every agent kind, its capabilities and its
 * parameters, printed from the kinds' tables (mcts/agent_kind.h). The
 * Markdown form is docs/agents.md's text (scripts/docs_tables). */
#include <stdio.h>
#include <string.h>

#include "apps/cli.h"
#include "mcts/agent_kind.h"

static const char help[] =
    "usage: hoyle agents [KIND] [--json | --markdown]\n\n"
    "List every agent kind (or KIND alone) with what it can play (players, chance,\n"
    "a model, seeded or deterministic) and its parameters (key = default [range]\n"
    "help). Use a spec such as 'mcts(sims=800,c=1.25)' wherever an AGENT is\n"
    "expected; an agent that cannot play a game is refused before the game starts.\n";

static void print_text(const agent_kind_t *k)
{
    static char desc[16384];
    char caps[128];
    agent_caps_describe(k->caps, caps, sizeof caps);
    printf("%s — %s\n  plays: %s\n", k->name, k->description, caps);
    if (params_describe(k->params, desc, sizeof desc) > 0) printf("  parameters:\n%s", desc);
    printf("\n");
}

static void print_markdown(const agent_kind_t *k)
{
    static char table[32768];
    char caps[128];
    agent_caps_describe(k->caps, caps, sizeof caps);
    printf("### `%s`\n\n%s. Plays: %s.\n\n", k->name, k->description, caps);
    if (k->params == NULL || k->params[0].key == NULL)
        printf("No parameters.\n");
    else if (params_markdown(k->params, "", table, sizeof table) > 0)
        printf("%s", table);
}

static void print_json(json_t *j, const agent_kind_t *k)
{
    char caps[128];
    agent_caps_describe(k->caps, caps, sizeof caps);
    json_open(j, NULL, '{');
    json_str(j, "name", k->name);
    json_str(j, "description", k->description);
    json_str(j, "capabilities", caps);
    json_bool(j, "chance", k->caps & AGENT_CAP_CHANCE);
    json_bool(j, "two_player", k->caps & AGENT_CAP_TWO_PLAYER);
    json_bool(j, "one_player", k->caps & AGENT_CAP_ONE_PLAYER);
    json_bool(j, "model", k->caps & AGENT_CAP_MODEL);
    json_bool(j, "seeded", k->caps & AGENT_CAP_SEEDED);
    params_json(j, "params", k->params);
    json_close(j);
}

static const char *kind_name_at(const void *ctx, int i)
{
    (void)ctx;
    return agent_kind_at(i) ? agent_kind_at(i)->name : NULL;
}

/* Exit code: EXIT_OK, or EXIT_USAGE for an unknown KIND. */
int cmd_agents(int argc, char **argv)
{
    bool json = false, markdown = false;
    const char *only = NULL;
    int num_pos = 0;
    const cli_opt_t opts[] = {
        CLI_OPT_JSON(&json),
        CLI_OPT_FLAG("--markdown", &markdown, "the docs' tables (docs/agents.md)"),
        CLI_OPT_END,
    };
    const cli_command_t command = {.name = "agents",
                                   .help = help,
                                   .opts = opts,
                                   .positional = "[KIND]",
                                   .max_pos = 1,
                                   .pos = &only,
                                   .num_pos = &num_pos};
    int rc = cli_parse(&command, argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    bool found = false;
    for (int i = 0; agent_kind_at(i); i++) found |= only && !strcmp(agent_kind_at(i)->name, only);
    if (only && !found) {
        spec_unknown("unknown agent", only, kind_name_at, NULL);
        return cli_fail("agents", EXIT_USAGE);
    }
    json_t j;
    if (json) json_begin_array(&j, stdout);
    for (int i = 0, n = 0; agent_kind_at(i); i++) {
        const agent_kind_t *k = agent_kind_at(i);
        if (only && strcmp(k->name, only) != 0) continue;
        if (json)
            print_json(&j, k);
        else if (markdown)
            printf("%s", n++ ? "\n" : ""), print_markdown(k);
        else
            print_text(k);
    }
    if (json) json_end(&j);
    return EXIT_OK;
}
