/* Floorplan: where every bit cell lies on the systematic-field grid.
 *
 * The RF region of an SM is banks stacked bank_rows high and bank_cols wide; a bank is
 * entries rows of bits cells; a cell is cell_aspect times wider than tall.  Domain "sm":
 * the field spans one RF, whose width is the unit.  Domain "chip": the field spans the
 * die (width is the unit, square SM tiles, sm_rows x sm_cols), and each SM's RF is a
 * rectangle of rf_fraction of its tile area, centred in the tile.  A cell takes the
 * field value of the grid square its centre falls in (the grid points are the square
 * centres), so the field is piecewise constant and the cells of a register sharing a
 * grid point are iid given that value: that is what lets us draw their maximum at once. */
#include <math.h>
#include <stdlib.h>

#include "var_internal.h"

typedef struct rf_box {
    double x0, y0, w, h; /* in domain widths */
} rf_box;

static int rf_box_of(const var_params *p, int sm, double *die_h, rf_box *box)
{
    const var_floorplan *f = &p->floorplan;
    int bank_rows = f->n_banks / f->bank_cols;
    double width_cells = (double)f->bank_cols * f->bits_per_entry * f->cell_aspect;
    double height_cells = (double)bank_rows * f->entries_per_bank;
    double aspect = width_cells / height_cells;
    if (p->variation.domain == VAR_DOMAIN_SM) {
        *die_h = 1.0 / aspect;
        *box = (rf_box){ 0.0, 0.0, 1.0, 1.0 / aspect };
        return VAR_OK;
    }
    double tile = 1.0 / f->sm_cols;
    double w = sqrt(f->rf_fraction * tile * tile * aspect), h = w / aspect;
    if (w > tile || h > tile)
        return VAR_EGEOMETRY;
    int tc = sm % f->sm_cols, tr = sm / f->sm_cols;
    *die_h = (double)f->sm_rows / f->sm_cols;
    *box = (rf_box){ (tc + 0.5) * tile - w / 2, (tr + 0.5) * tile - h / 2, w, h };
    return VAR_OK;
}

static int clampi(double v, int n)
{
    int i = (int)floor(v);
    return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/* Splits a run of m cells starting at bit `first` into power-of-two pieces. */
static int add_run(var__plan *pl, int *np, int grid_col, int first, int m)
{
    for (int k = VAR__MAXK - 1; k >= 0; k--)
        if (m & (1 << k)) {
            pl->pieces[(*np)++] = (var__piece){ (int16_t)grid_col, (uint8_t)k, (uint8_t)first };
            pl->need_k |= 1u << k;
            first += 1 << k;
        }
    return first;
}

static void lane_pieces(var__plan *pl, const var_params *p, const rf_box *box, int bc,
                        int lane, int *np)
{
    const var_floorplan *f = &p->floorplan;
    double cols = (double)f->bank_cols * f->bits_per_entry;
    int start = *np, run_col = -1, run_first = 0;
    for (int bit = 0; bit <= 32; bit++) {
        int gc = -2;
        if (bit < 32) {
            int m = f->lane_interleave, grp = lane / m, j = lane % m;
            double pcol = (double)bc * f->bits_per_entry + 32.0 * m * grp + (double)m * bit + j + 0.5;
            gc = clampi((box->x0 + pcol / cols * box->w) / pl->h, pl->grid_cols);
        }
        if (gc != run_col) {
            if (run_col >= 0)
                add_run(pl, np, run_col, run_first, bit - run_first);
            run_col = gc, run_first = bit;
        }
    }
    if (*np - start > pl->max_pieces)
        pl->max_pieces = *np - start;
}

int var__plan_build(var__plan *pl, const var_params *p)
{
    const var_floorplan *f = &p->floorplan;
    *pl = (var__plan){ 0 };
    pl->lanes = f->bits_per_entry / 32;
    pl->rows = f->n_banks * f->entries_per_bank;
    pl->cols = f->bits_per_entry;
    pl->grid_cols = p->variation.grid_cols;
    pl->h = 1.0 / pl->grid_cols;
    pl->n_fields = p->variation.domain == VAR_DOMAIN_SM ? f->n_sms : 1;
    size_t nlp = (size_t)f->n_sms * f->bank_cols * pl->lanes;
    pl->row_grid = malloc(sizeof(int32_t) * (size_t)f->n_sms * pl->rows);
    pl->piece_start = malloc(sizeof(int32_t) * (nlp + 1));
    pl->pieces = malloc(sizeof(var__piece) * nlp * 32);
    if (!pl->row_grid || !pl->piece_start || !pl->pieces) {
        var__plan_free(pl);
        return VAR_ENOMEM;
    }
    int np = 0;
    for (int sm = 0; sm < f->n_sms; sm++) {
        double die_h;
        rf_box box;
        int rc = rf_box_of(p, sm, &die_h, &box);
        if (rc) {
            var__plan_free(pl);
            return rc;
        }
        pl->grid_rows = (int)ceil(die_h / pl->h - 1e-9);
        if (pl->grid_rows < 1)
            pl->grid_rows = 1;
        int bank_rows = f->n_banks / f->bank_cols;
        for (int r = 0; r < pl->rows; r++) {
            int b = r / f->entries_per_bank, e = r % f->entries_per_bank;
            double prow = (double)(b / f->bank_cols) * f->entries_per_bank + e + 0.5;
            double y = box.y0 + prow / ((double)bank_rows * f->entries_per_bank) * box.h;
            pl->row_grid[(size_t)sm * pl->rows + r] = clampi(y / pl->h, pl->grid_rows);
        }
        for (int bc = 0; bc < f->bank_cols; bc++)
            for (int l = 0; l < pl->lanes; l++) {
                pl->piece_start[((size_t)sm * f->bank_cols + bc) * pl->lanes + l] = np;
                lane_pieces(pl, p, &box, bc, l, &np);
            }
    }
    pl->piece_start[nlp] = np;
    return VAR_OK;
}

void var__plan_free(var__plan *pl)
{
    free(pl->row_grid);
    free(pl->piece_start);
    free(pl->pieces);
    *pl = (var__plan){ 0 };
}
