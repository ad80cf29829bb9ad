/* The systematic field: a stationary zero-mean unit-variance Gaussian field with the
 * spherical correlation on a regular grid.
 *
 * Production: circulant embedding (Dietrich & Newsam 1997).  The grid's covariance is
 * embedded in a circulant on an M x N torus; its eigenvalues are the FFT of the first
 * row.  If none is negative the embedding is exact: Y = FFT(sqrt(lambda / MN) * (Z1 +
 * i Z2)) has real and imaginary parts that are two independent fields with exactly the
 * asked covariance.  A negative eigenvalue beyond round-off means the embedding is not a
 * covariance; we then enlarge the torus (still exact) up to max_grow times, and report
 * VAR_ENOTPD rather than clip.  Reference: dense Cholesky (GSL) for small grids. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_version.h>

#include "var_internal.h"

#define EIGEN_TOL 1e-9     /* |negative eigenvalue| / largest treated as round-off    */
#define CHOLESKY_MAX 2048  /* points; 2048^2 doubles = 32 MB                           */
#define EMBED_MAX (1 << 22) /* torus points; 64 MB of complex doubles                  */

struct var__field {
    var_field_method method;
    int rows, cols, M, N;
    double min_eigen;
    double *sqrt_lambda;   /* [M][N], circulant                                      */
    fftw_complex *buf;     /* [M][N], circulant                                      */
    fftw_plan plan;
    double *L;             /* [P][P] lower Cholesky factor, cholesky                 */
    var__zig zig;
};

double var__spherical(double r, double phi)
{
    if (r >= phi)
        return 0.0;
    double s = r / phi;
    return 1.0 - 1.5 * s + 0.5 * s * s * s;
}

/* Smallest m >= n whose prime factors are 2, 3, 5, 7: FFTW's fast sizes. */
static int fft_size(int n)
{
    for (int m = n > 1 ? n : 1;; m++) {
        int r = m;
        for (int p = 2; p <= 7; p++)
            while (r % p == 0)
                r /= p;
        if (r == 1)
            return m;
    }
}

/* Eigenvalues of the M x N embedding into f->sqrt_lambda; returns min / max. */
static double embed(var__field *f, double h, double phi)
{
    int M = f->M, N = f->N;
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            double dm = m < M - m ? m : M - m, dn = n < N - n ? n : N - n;
            f->buf[m * N + n][0] = var__spherical(h * sqrt(dm * dm + dn * dn), phi);
            f->buf[m * N + n][1] = 0.0;
        }
    fftw_execute(f->plan);
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < M * N; i++) {
        double l = f->buf[i][0];
        lo = fmin(lo, l), hi = fmax(hi, l);
        f->sqrt_lambda[i] = l > 0 ? sqrt(l / ((double)M * N)) : 0.0;
    }
    return lo / hi;
}

/* Torus side for n grid points and a correlation range of R points.  A pair at lag e
 * along this side is seen at torus lag min(e, side - e); the torus covariance equals the
 * grid's if every wrapped pair (e > side / 2) is beyond the range both ways: e >= R and
 * side - e >= R.  With e <= n - 1 that holds for side >= n - 1 + R and, when R < n - 1,
 * side >= 2 R.  The spherical model's compact support makes this smaller than the
 * general 2 (n - 1) whenever R < n - 1 (the default: 128 x 192 instead of 128 x 256);
 * the eigenvalue check still decides, and grows the torus if it must. */
static int torus_side(int n, int R)
{
    if (n <= 1)
        return 1;
    int wrap = 2 * R < 2 * (n - 1) ? 2 * R : 2 * (n - 1);
    return n - 1 + R > wrap ? n - 1 + R : wrap;
}

static int circulant_init(var__field *f, double h, double phi, int max_grow)
{
    int R = (int)ceil(phi / h);
    int M = fft_size(torus_side(f->rows, R)), N = fft_size(torus_side(f->cols, R));
    for (int attempt = 0; attempt <= max_grow; attempt++) {
        if ((double)M * N > EMBED_MAX)
            return VAR_EEMBED;
        if (f->plan)
            fftw_destroy_plan(f->plan);
        fftw_free(f->buf);
        free(f->sqrt_lambda);
        f->M = M, f->N = N;
        f->buf = fftw_alloc_complex((size_t)M * N);
        f->sqrt_lambda = malloc(sizeof(double) * (size_t)M * N);
        if (!f->buf || !f->sqrt_lambda)
            return VAR_ENOMEM;
        f->plan = fftw_plan_dft_2d(M, N, f->buf, f->buf, FFTW_FORWARD, FFTW_ESTIMATE);
        if (!f->plan)
            return VAR_ENOMEM;
        f->min_eigen = embed(f, h, phi);
        if (f->min_eigen >= -EIGEN_TOL)
            return VAR_OK;
        M = fft_size(M + M / 4 + 1), N = fft_size(N + N / 4 + 1);
    }
    return VAR_ENOTPD;
}

static int cholesky_init(var__field *f, double h, double phi)
{
    int P = f->rows * f->cols;
    if (P > CHOLESKY_MAX)
        return VAR_ETOOBIG;
    f->L = malloc(sizeof(double) * (size_t)P * P);
    if (!f->L)
        return VAR_ENOMEM;
    for (int a = 0; a < P; a++)
        for (int b = 0; b < P; b++) {
            double di = a / f->cols - b / f->cols, dj = a % f->cols - b % f->cols;
            f->L[a * P + b] = var__spherical(h * sqrt(di * di + dj * dj), phi);
        }
    gsl_matrix_view m = gsl_matrix_view_array(f->L, P, P);
    gsl_error_handler_t *old = gsl_set_error_handler_off(); /* GSL aborts otherwise */
    int rc = gsl_linalg_cholesky_decomp1(&m.matrix);
    gsl_set_error_handler(old);
    f->min_eigen = 0.0;
    return rc ? VAR_ENOTPD : VAR_OK;
}

var__field *var__field_alloc(int rows, int cols, double h, double phi, var_field_method m,
                             int max_grow, int *err)
{
    var__field *f = calloc(1, sizeof *f);
    if (!f) {
        *err = VAR_ENOMEM;
        return NULL;
    }
    f->method = m, f->rows = rows, f->cols = cols;
    var__zig_init(&f->zig);
    *err = m == VAR_FIELD_CHOLESKY ? cholesky_init(f, h, phi)
                                   : circulant_init(f, h, phi, max_grow);
    if (*err) {
        var__field_free(f);
        return NULL;
    }
    return f;
}

void var__field_free(var__field *f)
{
    if (!f)
        return;
    if (f->plan)
        fftw_destroy_plan(f->plan);
    fftw_free(f->buf);
    free(f->sqrt_lambda);
    free(f->L);
    free(f);
}

char *var__field_lib(const var__field *f)
{
    if (f->method == VAR_FIELD_CHOLESKY) {
        size_t n = strlen(gsl_version) + 8;
        char *s = malloc(n);
        if (s)
            snprintf(s, n, "gsl %s", gsl_version);
        return s;
    }
    char *plan = fftw_sprint_plan(f->plan);
    size_t n = strlen(fftw_version) + (plan ? strlen(plan) : 0) + 2;
    char *s = plan ? malloc(n) : NULL;
    if (s)
        snprintf(s, n, "%s\n%s", fftw_version, plan);
    free(plan);
    return s;
}

double var__field_min_eigen(const var__field *f, int *rows, int *cols)
{
    if (rows)
        *rows = f->M;
    if (cols)
        *cols = f->N;
    return f->min_eigen;
}

static void cholesky_sample(var__field *f, var__stream s, double *a, double *b)
{
    int P = f->rows * f->cols;
    /* z is read twice per output point, so draw it into a and b first, then multiply
     * in place from the last row up (row i needs z[0..i] only). */
    for (int i = 0; i < P; i++) {
        double z[4];
        var__zig_normal4(&f->zig, s, (uint32_t)i, z);
        a[i] = z[0];
        if (b)
            b[i] = z[1];
    }
    for (int i = P - 1; i >= 0; i--) {
        const double *Li = f->L + (size_t)i * P;
        double sa = 0.0, sb = 0.0;
        for (int j = 0; j <= i; j++) {
            sa += Li[j] * a[j];
            if (b)
                sb += Li[j] * b[j];
        }
        a[i] = sa;
        if (b)
            b[i] = sb;
    }
}

void var__field_sample(var__field *f, var__stream s, double *a, double *b)
{
    if (f->method == VAR_FIELD_CHOLESKY) {
        cholesky_sample(f, s, a, b);
        return;
    }
    /* One Ziggurat block of four normals per two torus points.  Two blocks per
     * iteration, inlined, so the two Philox multiply chains interleave: the loop is
     * latency-bound otherwise.  MN is a multiple of 4 unless the torus is tiny. */
    int MN = f->M * f->N, i = 0;
    double *out = (double *)f->buf;
    const double *sl = f->sqrt_lambda;
    for (; i + 4 <= MN; i += 4) {
        uint32_t j = (uint32_t)(i / 2);
        double *o = out + 2 * i;
        philox4x32_ctr_t r0 = var__block(s, 0, j), r1 = var__block(s, 0, j + 1);
        if (var__zig_fast4(&f->zig, r0, o))
            var__zig_normal4(&f->zig, s, j, o);
        if (var__zig_fast4(&f->zig, r1, o + 4))
            var__zig_normal4(&f->zig, s, j + 1, o + 4);
        for (int q = 0; q < 8; q++) /* point i + q / 2, re and im */
            o[q] *= sl[i + q / 2];
    }
    for (; i < MN; i += 2) {
        double z[4];
        var__zig_normal4(&f->zig, s, (uint32_t)(i / 2), z);
        for (int q = 0; q < 4 && 2 * i + q < 2 * MN; q++)
            out[2 * i + q] = z[q] * sl[i + q / 2];
    }
    fftw_execute(f->plan);
    for (int r = 0; r < f->rows; r++)
        for (int c = 0; c < f->cols; c++) {
            a[r * f->cols + c] = f->buf[r * f->N + c][0];
            if (b)
                b[r * f->cols + c] = f->buf[r * f->N + c][1];
        }
}
