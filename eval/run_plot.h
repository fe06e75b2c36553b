/* run_plot.h — a training run's eval.csv (docs/formats.md, "Training
 * evaluation logs") as one SVG: per opponent, the evaluated net's score and
 * its Elo difference against the generation, with their 95% intervals,
 * drawn by the one plot writer (eval/svg_plot.h). `hoyle plot RUN` writes it
 * beside the run's elo.svg. */
#ifndef HOYLE_EVAL_RUN_PLOT_H
#define HOYLE_EVAL_RUN_PLOT_H

#include <stdio.h>

#define RUN_PLOT_MAX_OPPONENTS 12 /* series per panel (the palette's colours) */

/* Read `csv_path` (an eval.csv) and write its plot to `out`, titled with
 * `title` (borrowed; NULL = the file's name). 0; HOYLE_EIO when the file
 * cannot be read or the stream fails; HOYLE_EINVAL naming the file (and
 * line) when a column is missing, a number is bad, there is no row, or
 * there are more than RUN_PLOT_MAX_OPPONENTS opponents. */
int run_plot_eval_csv(const char *csv_path, const char *title, FILE *out);

#endif
