/* svg_plot.c — line plots with intervals as SVG (svg_plot.h). Each panel
 * maps its data range, rounded out to tick steps, onto a fixed plot area;
 * everything is written with printf into the caller's stream. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "core/error.h"
#include "eval/svg_plot.h"

/* Geometry of one panel, in SVG units: width, height, and the plot area's
 * margins (the right one holds the legend). */
#define PW 760.0
#define PH 380.0
#define ML 70.0
#define MR 210.0
#define MT 40.0
#define MB 50.0

static const char *const colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                      "#ff7f0e", "#8c564b", "#e377c2", "#7f7f7f",
                                      "#bcbd22", "#17becf", "#393b79", "#637939"};
#define NCOLOURS (int)(sizeof colours / sizeof colours[0])

typedef struct frame {
    double x0, x1, y0, y1; /* data range shown (log10 of x on a log axis) */
    double top;            /* the panel's offset in the document */
    int log_x;
    int integer_x; /* x ticks on whole numbers only */
} frame_t;

static void xml_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '"')
            fputs("&quot;", f);
        else
            fputc(*s, f);
    }
}

/* A readable tick step for a range: 1, 2 or 5 times a power of ten, about five ticks. */
static double nice_step(double range)
{
    double raw = range / 5, mag = pow(10, floor(log10(raw))), norm = raw / mag;
    return (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
}

/* The x tick step of a linear axis. */
static double x_step(const frame_t *fr, double range)
{
    double st = nice_step(range);
    return fr->integer_x && st < 1 ? 1 : st;
}

static int shown(const frame_t *fr, double x, double y)
{
    return isfinite(x) && isfinite(y) && (!fr->log_x || x > 0);
}

static double px(const frame_t *fr, double x)
{
    double v = fr->log_x ? log10(x) : x;
    return ML + (v - fr->x0) / (fr->x1 - fr->x0) * (PW - ML - MR);
}

static double py(const frame_t *fr, double y)
{
    return fr->top + PH - MB - (y - fr->y0) / (fr->y1 - fr->y0) * (PH - MT - MB);
}

/* The ranges of a panel's points and intervals, rounded out to whole tick steps. */
static void fit_frame(const plot_panel_t *p, frame_t *fr)
{
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (int s = 0; s < p->n_series; s++) {
        const plot_series_t *se = &p->series[s];
        for (int i = 0; i < se->n; i++) {
            if (!shown(fr, se->x[i], se->y[i])) continue;
            double x = fr->log_x ? log10(se->x[i]) : se->x[i];
            x0 = fmin(x0, x), x1 = fmax(x1, x);
            y0 = fmin(y0, se->y[i]), y1 = fmax(y1, se->y[i]);
            if (se->lo && isfinite(se->lo[i])) y0 = fmin(y0, se->lo[i]);
            if (se->hi && isfinite(se->hi[i])) y1 = fmax(y1, se->hi[i]);
        }
    }
    if (!isfinite(x0)) x0 = 0, x1 = 1;
    if (!isfinite(y0)) y0 = 0, y1 = 1;
    /* one x value: a unit either side, never below 0 when the data is not (a run's
     * first evaluation at minute 0.4 drew an axis from -0.6) */
    bool x_from_0 = !fr->log_x && x0 >= 0;
    if (x1 - x0 < 1e-9) x0 -= fr->log_x ? 0.5 : 1, x1 += fr->log_x ? 0.5 : 1;
    if (x_from_0 && x0 < 0) x0 = 0;
    double want = p->min_y_span > 0 ? p->min_y_span : 1e-9;
    if (y1 - y0 < want) {
        double mid = (y0 + y1) / 2, half = p->min_y_span > 0 ? want / 2 : 1;
        y0 = mid - half, y1 = mid + half;
    }
    if (fr->log_x) { /* a margin of a tenth of a decade on each side */
        double m = fmax(0.1, (x1 - x0) * 0.05);
        x0 -= m, x1 += m;
    } else {
        double st = x_step(fr, x1 - x0);
        x0 = floor(x0 / st) * st, x1 = ceil(x1 / st) * st;
    }
    double st = nice_step(y1 - y0);
    y0 = floor(y0 / st) * st, y1 = ceil(y1 / st) * st;
    fr->x0 = x0, fr->x1 = x1, fr->y0 = y0, fr->y1 = y1;
}

static void axes(FILE *f, const plot_panel_t *p, const frame_t *fr)
{
    double bottom = fr->top + PH - MB, right = PW - MR;
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\" font-size=\"14\">",
            (ML + right) / 2, fr->top + 22);
    xml_text(f, p->title);
    fputs("</text>\n", f);
    /* y ticks and grid */
    double st = nice_step(fr->y1 - fr->y0);
    for (double y = fr->y0; y <= fr->y1 + st / 2; y += st) {
        fprintf(f,
                "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n"
                "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
                ML, py(fr, y), right, py(fr, y), ML - 4, py(fr, y) + 4, fabs(y) < st / 2 ? 0 : y);
    }
    /* x ticks: 1, 2, 5 per decade on a log axis, nice steps otherwise */
    if (fr->log_x) {
        for (int e = (int)floor(fr->x0); e <= (int)ceil(fr->x1); e++)
            for (int m = 1; m <= 5; m += m == 1 ? 1 : 3) {
                double v = log10(m) + e;
                if (v < fr->x0 || v > fr->x1) continue;
                double x = ML + (v - fr->x0) / (fr->x1 - fr->x0) * (PW - ML - MR);
                fprintf(f,
                        "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#eee\"/>\n"
                        "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%g</text>\n",
                        x, fr->top + MT, x, bottom, x, bottom + 16, pow(10, v));
            }
    } else {
        double sx = x_step(fr, fr->x1 - fr->x0);
        for (double v = fr->x0; v <= fr->x1 + sx / 2; v += sx)
            fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%g</text>\n", px(fr, v),
                    bottom + 16, fabs(v) < sx / 2 ? 0 : v);
    }
    fprintf(f,
            "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n"
            "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n",
            ML, bottom, right, bottom, ML, fr->top + MT, ML, bottom);
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">", (ML + right) / 2,
            fr->top + PH - 12);
    xml_text(f, p->x_label);
    fprintf(f,
            "</text>\n<text x=\"16\" y=\"%.0f\" transform=\"rotate(-90 16 %.0f)\" "
            "text-anchor=\"middle\">",
            fr->top + PH / 2, fr->top + PH / 2);
    xml_text(f, p->y_label);
    fputs("</text>\n", f);
}

static void series(FILE *f, const plot_series_t *se, const frame_t *fr, int k, int legend_row)
{
    const char *c = colours[(se->colour > 0 ? se->colour - 1 : k) % NCOLOURS];
    if (se->band && se->lo && se->hi) {
        fprintf(f, "<polygon fill=\"%s\" fill-opacity=\"0.2\" stroke=\"none\" points=\"", c);
        for (int i = 0; i < se->n; i++)
            if (shown(fr, se->x[i], se->y[i]))
                fprintf(f, "%.1f,%.1f ", px(fr, se->x[i]), py(fr, se->hi[i]));
        for (int i = se->n - 1; i >= 0; i--)
            if (shown(fr, se->x[i], se->y[i]))
                fprintf(f, "%.1f,%.1f ", px(fr, se->x[i]), py(fr, se->lo[i]));
        fputs("\"/>\n", f);
    }
    fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", c);
    for (int i = 0; i < se->n; i++)
        if (shown(fr, se->x[i], se->y[i]))
            fprintf(f, "%.1f,%.1f ", px(fr, se->x[i]), py(fr, se->y[i]));
    fputs("\"/>\n", f);
    for (int i = 0; i < se->n; i++) {
        if (!shown(fr, se->x[i], se->y[i])) continue;
        double x = px(fr, se->x[i]);
        if (!se->band && se->lo && se->hi && isfinite(se->lo[i]) && isfinite(se->hi[i]))
            fprintf(f,
                    "<path d=\"M%.1f %.1fV%.1fM%.1f %.1fh8M%.1f %.1fh8\" stroke=\"%s\" "
                    "fill=\"none\"/>\n",
                    x, py(fr, se->lo[i]), py(fr, se->hi[i]), x - 4, py(fr, se->lo[i]), x - 4,
                    py(fr, se->hi[i]), c);
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"><title>", x,
                py(fr, se->y[i]), c);
        xml_text(f, se->name);
        fprintf(f, ": x %g, y %.1f", se->x[i], se->y[i]);
        if (se->lo && se->hi) fprintf(f, " [%.1f, %.1f]", se->lo[i], se->hi[i]);
        fputs("</title></circle>\n", f);
    }
    if (se->name && se->name[0]) {
        double y = fr->top + MT + 8 + 18 * legend_row, x = PW - MR + 14;
        fprintf(f,
                "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" "
                "stroke-width=\"2\"/>\n<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\">",
                x, y, x + 18, y, c, x + 24, y + 4);
        xml_text(f, se->name);
        fputs("</text>\n", f);
    }
}

int svg_plot_write(FILE *f, const plot_panel_t *panels, int n_panels)
{
    if (n_panels < 1) return hoyle_error(HOYLE_EINVAL, "svg: no panel to plot");
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" "
            "height=\"100%%\" fill=\"white\"/>\n",
            PW, PH * n_panels);
    for (int p = 0; p < n_panels; p++) {
        frame_t fr = {.top = PH * p, .log_x = panels[p].log_x, .integer_x = panels[p].integer_x};
        fit_frame(&panels[p], &fr);
        axes(f, &panels[p], &fr);
        int row = 0;
        for (int s = 0; s < panels[p].n_series; s++) {
            const plot_series_t *se = &panels[p].series[s];
            series(f, se, &fr, s, row);
            row += se->name && se->name[0];
        }
    }
    fputs("</svg>\n", f);
    return ferror(f) ? hoyle_error(HOYLE_EIO, "svg: write failed") : HOYLE_OK;
}
