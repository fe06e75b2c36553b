/* svg_plot.h — line plots with intervals as one self-contained SVG file: the
 * one plot writer of hoyle (a study's strength against budget and against
 * time per move, eval/study_results.h; the training loop's Elo against time,
 * train/loop_eval.c).
 *
 * A document is panels stacked top to bottom; a panel has axes with tick
 * labels (linear, or logarithmic in x), and series drawn as a polyline
 * through their points in the order given, each point's interval [lo, hi]
 * as an error bar or, for a series with `band`, as a shaded band. Points
 * with a non-finite x or y are left out (and so are non-positive x on a log
 * axis); a panel with no point left still draws its axes. The legend lists
 * the series of a panel at its right. */
#ifndef HOYLE_EVAL_SVG_PLOT_H
#define HOYLE_EVAL_SVG_PLOT_H

#include <stdio.h>

typedef struct plot_series {
    const char *name; /* legend text; NULL or "" = no legend entry */
    int n;            /* points */
    const double *x, *y;
    const double *lo, *hi; /* the interval of y per point; NULL = none */
    int band;              /* 1: the interval as a shaded band, 0: as error bars */
    int colour;            /* 1-based palette entry (one colour per series across panels);
                              0 = the series' place in its panel */
} plot_series_t;

typedef struct plot_panel {
    const char *title, *x_label, *y_label;
    int log_x;         /* 1: logarithmic x axis (base 10, ticks at 1, 2, 5 x 10^k) */
    int integer_x;     /* 1: x counts something (generations): ticks on whole numbers */
    double min_y_span; /* the y axis spans at least this much, centred on the data
                          (Elo: 100, so one point or a flat line gets whole-number
                          ticks); 0 = the data's span (2 for a single value) */
    int n_series;      /* at most 12 get their own colour; more repeat them */
    const plot_series_t *series;
} plot_panel_t;

/* Write the panels as one SVG document to f (all borrowed). 0, or HOYLE_EIO
 * when the stream reports an error, HOYLE_EINVAL for no panel. */
int svg_plot_write(FILE *f, const plot_panel_t *panels, int n_panels);

#endif
