/* cmd_plot.c — `hoyle plot RUN|EVAL.csv [--out FILE.svg]`: a training run's
 * eval.csv drawn as an SVG (eval/run_plot.h) beside its elo.svg: the new
 * net's score and Elo difference against each opponent, by generation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "apps/cli.h"
#include "core/file.h"
#include "eval/run_plot.h"

static const char help[] =
    "usage: hoyle plot RUN|EVAL.csv [--out FILE.svg]\n\n"
    "Draw a training run's evaluations (RUN/eval.csv, docs/formats.md) as one\n"
    "SVG: for each opponent, the evaluated net's score and its Elo difference\n"
    "against the generation, with 95% intervals. Written to RUN/eval.svg (beside\n"
    "elo.svg, the Elo of every net the run keeps itself), or for a CSV file given\n"
    "by name, beside it with .svg for .csv; --out names another file. Open it in\n"
    "a browser, or see it on the page's Results view (hoyle serve --data).\n";

int cmd_plot(int argc, char **argv)
{
    const char *src = NULL, *out = NULL;
    const cli_opt_t opts[] = {
        CLI_OPT("--out", &out, "FILE.svg", "where to write the plot"),
        CLI_OPT_END,
    };
    int rc = cli_parse_one("plot", help, opts, "RUN|EVAL.csv", NULL, &src, argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    char csv[4200], svg[4200];
    struct stat st;
    bool is_dir = stat(src, &st) == 0 && S_ISDIR(st.st_mode);
    size_t n = strlen(src);
    if (is_dir) {
        snprintf(csv, sizeof csv, "%s/eval.csv", src);
        snprintf(svg, sizeof svg, "%s/eval.svg", src);
    } else {
        snprintf(csv, sizeof csv, "%s", src);
        bool dot_csv = n > 4 && strcmp(src + n - 4, ".csv") == 0;
        snprintf(svg, sizeof svg, "%.*s.svg", (int)(dot_csv ? n - 4 : n), src);
    }
    if (out) snprintf(svg, sizeof svg, "%s", out);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f == NULL) return cli_usage_error("plot", "out of memory");
    int status = run_plot_eval_csv(csv, is_dir ? src : NULL, f);
    if (fclose(f) != 0 && status == 0) status = hoyle_error(HOYLE_ENOMEM, "plot: out of memory");
    if (status) {
        free(text);
        return cli_fail("plot", EXIT_USAGE); /* a missing or malformed file: bad input */
    }
    status = file_write_atomic(svg, text, len);
    free(text);
    if (status) return cli_fail("plot", EXIT_FAILED);
    printf("wrote %s\n", svg);
    return EXIT_OK;
}
