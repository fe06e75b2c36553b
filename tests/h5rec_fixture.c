/* h5rec_fixture.c — write a small game-record file with known contents, for
 * tests/check_h5schema.py (run by tests/cli/h5schema.sh) to read with h5py.
 * Usage: h5rec_fixture OUT.h5 (OUT.h5 must not exist). */
#include <stdio.h>

#include "core/error.h"
#include "data/h5rec.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: h5rec_fixture OUT.h5\n");
        return 2;
    }
    static const char *const specs[2] = {"checkers(variant=english)", "gobang(board=8,men=12)"};
    h5rec_meta_t meta = {.program_version = "fixture",
                         .config_text = "games: [checkers]\nmatch: {games: 2}\n",
                         .config_path = "configs/fixture.yaml",
                         .num_games = 2,
                         .game_specs = specs,
                         .created_unix = 1700000000};
    int32_t a0[3] = {1, 2, 3}, a1[2] = {40, 7}, o1[1] = {40}, o2[2] = {5, 6};
    float ms0[3] = {0.5f, 1.5f, 2.5f};
    game_record_t recs[4] = {{.game_spec = "checkers(variant=english)",
                              .agent_spec = {"random", "mcts(sims=10)"},
                              .returns = {1, -1},
                              .result = 1,
                              .end = RECORD_END_RULES,
                              .num_actions = 3,
                              .actions = a0,
                              .action_ms = ms0,
                              .seed = 42},
                             {.game_spec = "gobang(board=8,men=12)",
                              .agent_spec = {"mcts(sims=10)", "random"},
                              .opening_name = "center",
                              .opening_len = 1,
                              .opening_actions = o1,
                              .returns = {0, 0},
                              .result = 0.5,
                              .end = RECORD_END_MOVE_LIMIT,
                              .num_actions = 2,
                              .actions = a1,
                              .seed = 9223372036854775813ull,
                              .pairing = 1,
                              .game_index = 1},
                             {.game_spec = "checkers(variant=english)",
                              .agent_spec = {"random", NULL},
                              .opening_name = "ab",
                              .opening_len = 2,
                              .opening_actions = o2,
                              .returns = {-1, 1},
                              .result = 0,
                              .end = RECORD_END_RESIGN,
                              .seed = 7,
                              .pairing = 2,
                              .round = 1},
                             {.game_spec = "checkers(variant=english)",
                              .agent_spec = {"random", "mcts(sims=10)"},
                              .opening_name = "center",
                              .opening_len = 1,
                              .opening_actions = o1,
                              .returns = {0, 0},
                              .result = 0.5,
                              .end = RECORD_END_ERROR,
                              .seed = 8,
                              .pairing = 0,
                              .round = 1,
                              .game_index = 3}};
    h5rec_t *h = NULL;
    int rc = h5rec_create(argv[1], &meta, &h);
    if (rc == 0) rc = h5rec_set_checkpoint(h, 2, 0);
    for (int i = 0; i < 4 && rc == 0; i++) rc = h5rec_append(h, &recs[i]);
    int rc2 = h5rec_close(h);
    if (rc == 0) rc = rc2;
    if (rc < 0) {
        fprintf(stderr, "h5rec_fixture: %s\n", hoyle_last_error());
        return 1;
    }
    return 0;
}
