/* The native core of the Diplomacy engine: convoy routes, legal orders, movement
 * resolution, retreats and adjustments on int tables.
 *
 * It mirrors the pure-Python engine (legal.py, convoys.py, adjudicator.py, retreats.py,
 * adjustments.py) step for step, including the order in which lists are built, so that the
 * two agree on every list, outcome and reason; the differential tests hold them to that.
 * Orders are interned ints (see native.py for the layout). Sets of provinces are 128-bit
 * masks, so a map may have at most 128 provinces and 255 locations.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

typedef unsigned __int128 mask_t;
#define BIT(i) (((mask_t)1) << (i))
#define HAS(m, i) ((int)(((m) >> (i)) & 1))

#define MAXP 128
#define MAXL 256
#define MAXADJ 24
#define MAXPOW 16

/* Order layout: kind in bits 0-3, fleet 4, target fleet 5, loc 6-13, a 14-21, b 22-29,
 * via 30. */
enum { O_HOLD, O_MOVE, O_SHOLD, O_SMOVE, O_CONVOY, O_RETREAT, O_DISBAND, O_BUILD, O_WAIVE };
#define ENC(kind, fleet, tfleet, loc, a, b, via)                                     \
    ((long)(kind) | ((long)(fleet) << 4) | ((long)(tfleet) << 5) | ((long)(loc) << 6) | \
     ((long)(a) << 14) | ((long)(b) << 22) | ((long)(via) << 30))

/* Province kinds, as map.py numbers them for us. */
enum { K_LAND, K_COAST, K_SEA, K_IMPASSABLE };

/* Movement kinds and reasons; the reason numbers are indices into native.REASONS. */
enum { M_HOLD, M_MOVE, M_SUPPORT, M_CONVOY, M_VOID };
enum {
    R_MOVED, R_HELD, R_SUPPORTED, R_CONVOYED, R_BOUNCED, R_OWN_UNIT, R_DISLODGED, R_CUT,
    R_UNMATCHED, R_NO_CONVOY, R_CONVOY_DISRUPTED, R_PARADOX
};

typedef struct {
    PyObject_HEAD
    int P, L, powers;
    uint8_t loc_province[MAXL];
    uint8_t loc_is_coast[MAXL]; /* a named coast */
    uint8_t army_stand[MAXL], fleet_stand[MAXL];
    uint8_t kind[MAXP];
    int8_t home[MAXP];
    uint8_t ncoasts[MAXP];
    uint8_t coasts[MAXP][4];
    uint8_t army_n[MAXP];
    uint8_t army_adj[MAXP][MAXADJ];
    uint8_t fleet_n[MAXL];
    uint8_t fleet_adj[MAXL][MAXADJ];
    mask_t army_mask[MAXP];
    mask_t fleet_mask[MAXL];
    mask_t sea_mask, coast_mask, centre_mask;
    mask_t seas_near[MAXP], sea_adj[MAXP], sea_coasts[MAXP], near[MAXP], any_adj[MAXP];
    int nhomes[MAXPOW];
    uint8_t homes[MAXPOW][MAXP];
    mask_t fleet_any[MAXP]; /* fleet moves from any coast of a province */
    int victory;
    int name_rank[MAXP]; /* rank of each province's name, for civil-disorder ties */
    int16_t by_code[26 * 26 * 26]; /* three-letter province code -> location, or -1 */
    char coast_of[MAXL][3];        /* "NC" for STP/NC; "" for a province */
    int has_codes;
    uint64_t serial; /* a number no other map of this process has: keys the route cache */
    long long *okey; /* order values by code, found through `table` and kept here (see */
    PyObject **oval; /* order_value) so that legal lists are built without Python calls */
    int ocount;
    PyObject **rkey; /* and the way back: codes of order values by identity, each value */
    long long *rval; /* held here so that its identity cannot pass to another object */
    int rcount;
} MapObject;

static PyTypeObject MapType;

/* --- helpers ------------------------------------------------------------------------ */

static inline int low_bit(mask_t m) {
    uint64_t lo = (uint64_t)m;
    if (lo) return __builtin_ctzll(lo);
    return 64 + __builtin_ctzll((uint64_t)(m >> 64));
}

static PyObject *mask_to_long(mask_t m) {
    PyObject *hi = PyLong_FromUnsignedLongLong((unsigned long long)(m >> 64));
    PyObject *lo = PyLong_FromUnsignedLongLong((unsigned long long)m);
    PyObject *sixty_four = PyLong_FromLong(64);
    PyObject *out = NULL, *shifted = NULL;
    if (hi && lo && sixty_four) {
        shifted = PyNumber_Lshift(hi, sixty_four);
        if (shifted) out = PyNumber_Or(shifted, lo);
    }
    Py_XDECREF(hi);
    Py_XDECREF(lo);
    Py_XDECREF(sixty_four);
    Py_XDECREF(shifted);
    return out;
}

static int long_to_mask(PyObject *obj, mask_t *out) {
    PyObject *mask64 = PyLong_FromUnsignedLongLong(~0ULL);
    PyObject *sixty_four = PyLong_FromLong(64);
    PyObject *lo = NULL, *shifted = NULL;
    int ok = -1;
    if (mask64 && sixty_four) {
        lo = PyNumber_And(obj, mask64);
        shifted = PyNumber_Rshift(obj, sixty_four);
        if (lo && shifted) {
            unsigned long long l = PyLong_AsUnsignedLongLong(lo);
            unsigned long long h = PyLong_AsUnsignedLongLong(shifted);
            if (!PyErr_Occurred()) {
                *out = ((mask_t)h << 64) | (mask_t)l;
                ok = 0;
            }
        }
    }
    Py_XDECREF(mask64);
    Py_XDECREF(sixty_four);
    Py_XDECREF(lo);
    Py_XDECREF(shifted);
    return ok;
}

/* Read a sequence of small ints into `out` (at most `cap`); returns the count or -1. */
static Py_ssize_t read_ints(PyObject *seq, int *out, Py_ssize_t cap, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > cap) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: %zd items, at most %zd", what, n, cap);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(items[i]);
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return n;
}

static PyObject *ints_to_list(const int *v, Py_ssize_t n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (!x) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, x);
    }
    return list;
}

/* Records made for Python: the engine's Piece and Dislodged named tuples, set by
 * `configure`, built as their tuple base would build them (no Python-level __new__). */
static PyTypeObject *piece_type = NULL, *dislodged_type = NULL;

static PyObject *record(PyTypeObject *type, int n, PyObject **items) {
    PyObject *t = type->tp_alloc(type, n);
    if (!t) {
        for (int k = 0; k < n; k++) Py_XDECREF(items[k]);
        return NULL;
    }
    for (int k = 0; k < n; k++) {
        if (!items[k]) {
            for (int j = k + 1; j < n; j++) Py_XDECREF(items[j]);
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, k, items[k]);
    }
    return t;
}

static PyObject *make_piece(int power, int fleet, int loc) {
    PyObject *items[3] = {PyLong_FromLong(power), PyBool_FromLong(fleet), PyLong_FromLong(loc)};
    return record(piece_type, 3, items);
}

static PyObject *configure(PyObject *mod, PyObject *args) {
    PyObject *piece, *dislodged;
    if (!PyArg_ParseTuple(args, "O!O!", &PyType_Type, &piece, &PyType_Type, &dislodged))
        return NULL;
    if (!PyType_IsSubtype((PyTypeObject *)piece, &PyTuple_Type) ||
        !PyType_IsSubtype((PyTypeObject *)dislodged, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "Piece and Dislodged must be tuple types");
        return NULL;
    }
    Py_INCREF(piece);
    Py_INCREF(dislodged);
    Py_XSETREF(piece_type, (PyTypeObject *)piece);
    Py_XSETREF(dislodged_type, (PyTypeObject *)dislodged);
    Py_RETURN_NONE;
}

/* --- the map ------------------------------------------------------------------------ */

static int map_init(MapObject *self, PyObject *args, PyObject *kwds) {
    /* (P, powers, loc_province, loc_is_coast, army_stand, fleet_stand, kinds, centres,
     *  homes, coasts, army_adj, fleet_adj) */
    int P, powers;
    PyObject *loc_province, *loc_is_coast, *army_stand, *fleet_stand, *kinds, *centres, *homes,
        *coasts, *army_adj, *fleet_adj;
    if (!PyArg_ParseTuple(args, "iiOOOOOOOOOO", &P, &powers, &loc_province, &loc_is_coast,
                          &army_stand, &fleet_stand, &kinds, &centres, &homes, &coasts,
                          &army_adj, &fleet_adj))
        return -1;
    if (P <= 0 || P > MAXP || powers <= 0 || powers > MAXPOW) {
        PyErr_SetString(PyExc_ValueError, "map too large for the native core");
        return -1;
    }
    int buf[MAXL];
    Py_ssize_t L = read_ints(loc_province, buf, MAXL - 1, "loc_province");
    if (L < 0) return -1;
    static uint64_t maps_made = 0;
    self->serial = ++maps_made;
    self->P = P;
    self->L = (int)L;
    self->powers = powers;
    for (int i = 0; i < L; i++) {
        if (buf[i] < 0 || buf[i] >= P) goto bad;
        self->loc_province[i] = (uint8_t)buf[i];
    }
    if (read_ints(loc_is_coast, buf, MAXL, "loc_is_coast") != L) goto bad;
    for (int i = 0; i < L; i++) self->loc_is_coast[i] = (uint8_t)buf[i];
    if (read_ints(army_stand, buf, MAXL, "army_stand") != L) goto bad;
    for (int i = 0; i < L; i++) self->army_stand[i] = (uint8_t)buf[i];
    if (read_ints(fleet_stand, buf, MAXL, "fleet_stand") != L) goto bad;
    for (int i = 0; i < L; i++) self->fleet_stand[i] = (uint8_t)buf[i];
    if (read_ints(kinds, buf, MAXP, "kinds") != P) goto bad;
    for (int i = 0; i < P; i++) self->kind[i] = (uint8_t)buf[i];
    int cen[MAXP];
    if (read_ints(centres, cen, MAXP, "centres") != P) goto bad;
    if (read_ints(homes, buf, MAXP, "homes") != P) goto bad;
    memset(self->nhomes, 0, sizeof self->nhomes);
    self->sea_mask = self->coast_mask = self->centre_mask = 0;
    for (int i = 0; i < P; i++) {
        if (buf[i] < -1 || buf[i] >= powers) goto bad;
        self->home[i] = (int8_t)buf[i];
        if (buf[i] >= 0) self->homes[buf[i]][self->nhomes[buf[i]]++] = (uint8_t)i;
        if (cen[i]) self->centre_mask |= BIT(i);
        if (self->kind[i] == K_SEA) self->sea_mask |= BIT(i);
        if (self->kind[i] == K_COAST) self->coast_mask |= BIT(i);
    }
    if (!PySequence_Check(coasts) || PySequence_Size(coasts) != P || PySequence_Size(army_adj) != P ||
        PySequence_Size(fleet_adj) != L)
        goto bad;
    for (int i = 0; i < P; i++) {
        PyObject *item = PySequence_GetItem(coasts, i);
        if (!item) return -1;
        Py_ssize_t n = read_ints(item, buf, 4, "coasts");
        Py_DECREF(item);
        if (n < 0) return -1;
        self->ncoasts[i] = (uint8_t)n;
        for (int k = 0; k < n; k++) {
            if (buf[k] < 0 || buf[k] >= L) goto bad;
            self->coasts[i][k] = (uint8_t)buf[k];
        }
        item = PySequence_GetItem(army_adj, i);
        if (!item) return -1;
        n = read_ints(item, buf, MAXADJ, "army_adj");
        Py_DECREF(item);
        if (n < 0) return -1;
        self->army_n[i] = (uint8_t)n;
        self->army_mask[i] = 0;
        for (int k = 0; k < n; k++) {
            if (buf[k] < 0 || buf[k] >= P) goto bad; /* armies move between provinces */
            self->army_adj[i][k] = (uint8_t)buf[k];
            self->army_mask[i] |= BIT(self->loc_province[buf[k]]);
        }
    }
    for (int i = 0; i < L; i++) {
        PyObject *item = PySequence_GetItem(fleet_adj, i);
        if (!item) return -1;
        Py_ssize_t n = read_ints(item, buf, MAXADJ, "fleet_adj");
        Py_DECREF(item);
        if (n < 0) return -1;
        self->fleet_n[i] = (uint8_t)n;
        self->fleet_mask[i] = 0;
        for (int k = 0; k < n; k++) {
            if (buf[k] < 0 || buf[k] >= L) goto bad;
            self->fleet_adj[i][k] = (uint8_t)buf[k];
            self->fleet_mask[i] |= BIT(self->loc_province[buf[k]]);
        }
    }
    for (int i = 0; i < P; i++) {
        mask_t m = self->fleet_mask[i];
        for (int k = 0; k < self->ncoasts[i]; k++) m |= self->fleet_mask[self->coasts[i][k]];
        self->seas_near[i] = self->kind[i] == K_COAST ? (m & self->sea_mask) : 0;
        int sea = self->kind[i] == K_SEA;
        self->sea_adj[i] = sea ? (self->fleet_mask[i] & self->sea_mask) : 0;
        self->sea_coasts[i] = sea ? (self->fleet_mask[i] & self->coast_mask) : 0;
        self->any_adj[i] = self->army_mask[i] | m;
        self->fleet_any[i] = m;
        self->name_rank[i] = i;
    }
    self->victory = 0;
    for (int i = 0; i < P; i++) {
        mask_t two = self->any_adj[i];
        for (mask_t m = self->any_adj[i]; m; m &= m - 1) two |= self->any_adj[low_bit(m)];
        self->near[i] = two & ~BIT(i);
    }
    return 0;
bad:
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "inconsistent map tables");
    return -1;
}

/* --- convoy routes (convoys.py) ---------------------------------------------------- */

typedef struct {
    int n;
    uint8_t dst[MAXP]; /* in order of first discovery, as the Python dict keeps them */
    mask_t seas[MAXP]; /* seas on some minimal route, by destination province */
} Routes;

typedef struct {
    uint8_t node;
    mask_t path, barred, touched;
} Frame;

static void search_routes(const MapObject *m, mask_t fleets, int src, Routes *out) {
    out->n = 0;
    mask_t start = m->seas_near[src] & fleets;
    if (!start) return;
    static int8_t slot[MAXP];
    memset(slot, -1, sizeof slot);
    static Frame stack[4096];
    int top = 0;
    mask_t not_src = ~BIT(src);
    for (mask_t b = start; b; b &= b - 1) {
        int s = low_bit(b);
        stack[top].node = (uint8_t)s;
        stack[top].path = BIT(s);
        stack[top].barred = start | BIT(s);
        stack[top].touched = 0;
        top++;
    }
    while (top > 0) {
        Frame f = stack[--top];
        for (mask_t land = m->sea_coasts[f.node] & ~f.touched & not_src; land; land &= land - 1) {
            int d = low_bit(land);
            if (slot[d] < 0) {
                slot[d] = (int8_t)out->n;
                out->dst[out->n] = (uint8_t)d;
                out->seas[out->n] = 0;
                out->n++;
            }
            out->seas[slot[d]] |= f.path;
        }
        mask_t nxt = m->sea_adj[f.node] & fleets & ~f.barred;
        if (nxt) {
            mask_t barred2 = f.barred | m->sea_adj[f.node];
            mask_t touched2 = f.touched | m->sea_coasts[f.node];
            for (; nxt; nxt &= nxt - 1) {
                int s = low_bit(nxt);
                if (top >= 4096) break; /* cannot happen on a map of 128 provinces */
                stack[top].node = (uint8_t)s;
                stack[top].path = f.path | BIT(s);
                stack[top].barred = barred2 | BIT(s);
                stack[top].touched = touched2;
                top++;
            }
        }
    }
}

/* Searches are memoised, as convoys.py does: positions repeat, and validation and the
 * legal lists ask about the same arrangement of fleets many times. A direct-mapped table;
 * an entry is good until another search lands in its slot. */
#define ROUTE_SLOTS 1024
static struct {
    uint64_t map;
    mask_t fleets;
    int src;
    Routes routes;
} route_cache[ROUTE_SLOTS];

static const Routes *routes_of(const MapObject *m, mask_t fleets, int src) {
    uint64_t lo = (uint64_t)fleets, hi = (uint64_t)(fleets >> 64);
    uint64_t h = (lo * 0x9E3779B97F4A7C15ULL) ^ (hi * 0xC2B2AE3D27D4EB4FULL) ^
                 ((uint64_t)src * 0x165667B19E3779F9ULL);
    int slot = (int)((h >> 40) % ROUTE_SLOTS);
    if (route_cache[slot].map != m->serial || route_cache[slot].fleets != fleets ||
        route_cache[slot].src != src) {
        search_routes(m, fleets, src, &route_cache[slot].routes);
        route_cache[slot].map = m->serial;
        route_cache[slot].fleets = fleets;
        route_cache[slot].src = src;
    }
    return &route_cache[slot].routes;
}

static void minimal_routes(const MapObject *m, mask_t fleets, int src, Routes *out) {
    const Routes *r = routes_of(m, fleets, src);
    out->n = r->n;
    memcpy(out->dst, r->dst, (size_t)r->n);
    memcpy(out->seas, r->seas, sizeof(mask_t) * (size_t)r->n);
}

static mask_t route_seas(const MapObject *m, mask_t fleets, int src, int dst, int *found) {
    const Routes *r = routes_of(m, fleets, src);
    for (int k = 0; k < r->n; k++)
        if (r->dst[k] == dst) {
            *found = 1;
            return r->seas[k];
        }
    *found = 0;
    return 0;
}

static int route_possible(const MapObject *m, mask_t fleets, int src, int dst) {
    int found;
    route_seas(m, fleets, src, dst, &found);
    return found;
}

/* --- a board: units, owners, dislodged units --------------------------------------- */

typedef struct {
    int8_t power[MAXP]; /* -1: no unit */
    uint8_t fleet[MAXP];
    uint8_t loc[MAXP];
    int8_t owner[MAXP];
    int8_t d_power[MAXP]; /* dislodged units: -1 none */
    uint8_t d_fleet[MAXP];
    uint8_t d_loc[MAXP];
    int16_t d_from[MAXP];
    mask_t contested;
    int n_order;
    uint8_t order[MAXP]; /* provinces with a unit, in the order the lists follow */
} Board;

/* --- legal movement orders (legal.py) ------------------------------------------------ */

typedef struct {
    int cap, n;
    long *v;
} Vec;

static int vec_push(Vec *vec, long x) {
    if (vec->n == vec->cap) {
        int cap = vec->cap ? vec->cap * 2 : 64;
        long *v = PyMem_Realloc(vec->v, sizeof(long) * (size_t)cap);
        if (!v) return -1;
        vec->v = v;
        vec->cap = cap;
    }
    vec->v[vec->n++] = x;
    return 0;
}

typedef struct {
    Vec per[MAXP]; /* by province */
} Lists;

static void lists_free(Lists *l, const Board *b) {
    for (int k = 0; k < b->n_order; k++) PyMem_Free(l->per[b->order[k]].v);
}

static int add_pair(const MapObject *m, Vec *out, int fleet, int loc, int ofleet, int oloc) {
    int here_prov = m->loc_province[loc];
    mask_t reach = fleet ? m->fleet_mask[loc] : m->army_mask[here_prov];
    int oprov = m->loc_province[oloc];
    if (HAS(reach, oprov) && vec_push(out, ENC(O_SHOLD, fleet, ofleet, loc, oloc, 0, 0))) return -1;
    for (mask_t r = reach & ~BIT(oprov); r; r &= r - 1) {
        int d = low_bit(r);
        if (ofleet) {
            for (int k = 0; k < m->fleet_n[oloc]; k++) {
                int x = m->fleet_adj[oloc][k];
                if (m->loc_province[x] == d &&
                    vec_push(out, ENC(O_SMOVE, fleet, ofleet, loc, oloc, x, 0)))
                    return -1;
            }
        } else if (HAS(m->army_mask[oprov], d)) {
            if (vec_push(out, ENC(O_SMOVE, fleet, ofleet, loc, oloc, d, 0))) return -1;
        }
    }
    return 0;
}

/* Fill `lists` for every unit of the board (or of power `who`, when >= 0: the others'
 * lists are skipped but still count for the supports and convoys of `who`'s units). */
static int movement_lists(const MapObject *m, const Board *b, int who, Lists *lists) {
    mask_t fleets = 0, occupied = 0;
    for (int k = 0; k < b->n_order; k++) {
        int p = b->order[k];
        occupied |= BIT(p);
        if (b->fleet[p] && HAS(m->sea_mask, p)) fleets |= BIT(p);
        lists->per[p].n = 0;
        lists->per[p].cap = 0;
        lists->per[p].v = NULL;
    }
    for (int k = 0; k < b->n_order; k++) {
        int p = b->order[k];
        if (who >= 0 && b->power[p] != who) continue;
        int fleet = b->fleet[p], loc = b->loc[p];
        Vec *out = &lists->per[p];
        if (vec_push(out, ENC(O_HOLD, fleet, 0, loc, 0, 0, 0))) return -1;
        if (fleet) {
            for (int j = 0; j < m->fleet_n[loc]; j++)
                if (vec_push(out, ENC(O_MOVE, 1, 0, loc, m->fleet_adj[loc][j], 0, 0))) return -1;
        } else {
            for (int j = 0; j < m->army_n[p]; j++)
                if (vec_push(out, ENC(O_MOVE, 0, 0, loc, m->army_adj[p][j], 0, 0))) return -1;
        }
        for (mask_t o = m->near[p] & occupied; o; o &= o - 1) {
            int q = low_bit(o);
            if (add_pair(m, out, fleet, loc, b->fleet[q], b->loc[q])) return -1;
        }
    }
    if (!fleets) return 0;
    /* Convoyed moves, the convoys that carry them, and supports of them. */
    static Routes routes[MAXP];
    int armies[MAXP], na = 0;
    for (int k = 0; k < b->n_order; k++) {
        int p = b->order[k];
        if (!b->fleet[p] && HAS(m->coast_mask, p)) {
            minimal_routes(m, fleets, p, &routes[na]);
            if (routes[na].n) armies[na++] = p;
        }
    }
    mask_t landings = 0;
    for (int i = 0; i < na; i++) {
        int a = armies[i];
        const Routes *r = &routes[i];
        int mine = who < 0 || b->power[a] == who;
        for (int k = 0; k < r->n; k++) {
            int d = r->dst[k];
            int via = HAS(m->army_mask[a], d);
            if (!via) landings |= BIT(d);
            if (mine && vec_push(&lists->per[a], ENC(O_MOVE, 0, 0, a, d, 0, via))) return -1;
            for (mask_t s = r->seas[k]; s; s &= s - 1) {
                int sea = low_bit(s);
                if ((who < 0 || b->power[sea] == who) &&
                    vec_push(&lists->per[sea], ENC(O_CONVOY, 1, 0, sea, a, d, 0)))
                    return -1;
            }
        }
    }
    if (!landings) return 0;
    for (int i = 0; i < na; i++) {
        int a = armies[i];
        const Routes *r = &routes[i];
        for (int k = 0; k < r->n; k++) {
            int d = r->dst[k];
            if (HAS(m->army_mask[a], d)) continue;
            for (int j = 0; j < b->n_order; j++) {
                int p = b->order[j];
                if (p == a || (who >= 0 && b->power[p] != who)) continue;
                mask_t reach = b->fleet[p] ? m->fleet_mask[b->loc[p]] : m->army_mask[p];
                if (!HAS(reach, d)) continue;
                if (b->fleet[p] && HAS(r->seas[k], p) &&
                    !route_possible(m, fleets & ~BIT(p), a, d))
                    continue;
                if (vec_push(&lists->per[p], ENC(O_SMOVE, b->fleet[p], 0, b->loc[p], a, d, 0)))
                    return -1;
            }
        }
    }
    return 0;
}

/* Read (provinces in order, powers, fleets, locs) into a board's units. */
static int read_units(const MapObject *m, PyObject *provs, PyObject *powers, PyObject *fleets,
                      PyObject *locs, Board *b) {
    int pv[MAXP], pw[MAXP], fl[MAXP], lc[MAXP];
    Py_ssize_t n = read_ints(provs, pv, MAXP, "provinces");
    if (n < 0) return -1;
    if (read_ints(powers, pw, MAXP, "powers") != n || read_ints(fleets, fl, MAXP, "fleets") != n ||
        read_ints(locs, lc, MAXP, "locations") != n) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "unit tables differ in length");
        return -1;
    }
    memset(b->power, -1, sizeof b->power);
    b->n_order = (int)n;
    for (int i = 0; i < n; i++) {
        if (pv[i] < 0 || pv[i] >= m->P || lc[i] < 0 || lc[i] >= m->L || pw[i] < 0 ||
            pw[i] >= m->powers || b->power[pv[i]] >= 0) {
            PyErr_SetString(PyExc_ValueError, "unit outside the map, of no power, or doubled");
            b->n_order = 0;
            return -1;
        }
        b->order[i] = (uint8_t)pv[i];
        b->power[pv[i]] = (int8_t)pw[i];
        b->fleet[pv[i]] = (uint8_t)fl[i];
        b->loc[pv[i]] = (uint8_t)lc[i];
    }
    return 0;
}

/* movement_orders(provs, powers, fleets, locs, who) -> list of lists of order codes */
static PyObject *map_movement_orders(MapObject *self, PyObject *args) {
    PyObject *provs, *powers, *fleets, *locs;
    int who = -1;
    if (!PyArg_ParseTuple(args, "OOOO|i", &provs, &powers, &fleets, &locs, &who)) return NULL;
    Board b;
    if (read_units(self, provs, powers, fleets, locs, &b)) return NULL;
    Lists *lists = PyMem_Malloc(sizeof(Lists));
    if (!lists) return PyErr_NoMemory();
    PyObject *out = NULL;
    if (movement_lists(self, &b, who, lists)) {
        PyErr_NoMemory();
        goto done;
    }
    out = PyList_New(b.n_order);
    if (!out) goto done;
    for (int k = 0; k < b.n_order; k++) {
        Vec *v = &lists->per[b.order[k]];
        PyObject *l = PyList_New(v->n);
        if (!l) {
            Py_CLEAR(out);
            goto done;
        }
        for (int j = 0; j < v->n; j++) PyList_SET_ITEM(l, j, PyLong_FromLong(v->v[j]));
        PyList_SET_ITEM(out, k, l);
    }
done:
    lists_free(lists, &b);
    PyMem_Free(lists);
    return out;
}


/* --- order values by code ------------------------------------------------------------ */

#define OSLOTS 16384 /* a power of two; orders of one map seen in play stay well below */

/* The order value of `code`: from this map's table of values already handed out, else from
 * the Python table (a dict whose __missing__ makes the value), then kept. New reference. */
static PyObject *order_value(MapObject *m, PyObject *table, long long code) {
    if (!m->okey) {
        m->okey = PyMem_Calloc(OSLOTS, sizeof(long long));
        m->oval = PyMem_Calloc(OSLOTS, sizeof(PyObject *));
        if (!m->okey || !m->oval) {
            PyMem_Free(m->okey);
            PyMem_Free(m->oval);
            m->okey = NULL;
            m->oval = NULL;
            PyErr_NoMemory();
            return NULL;
        }
    }
    uint64_t h = ((uint64_t)code * 0x9E3779B97F4A7C15ULL) >> 50;
    for (int probe = 0; probe < OSLOTS; probe++) {
        int slot = (int)((h + (uint64_t)probe) & (OSLOTS - 1));
        if (!m->oval[slot]) break;
        if (m->okey[slot] == code) {
            Py_INCREF(m->oval[slot]);
            return m->oval[slot];
        }
    }
    PyObject *key = PyLong_FromLongLong(code);
    if (!key) return NULL;
    PyObject *value = PyObject_GetItem(table, key);
    Py_DECREF(key);
    if (!value) return NULL;
    if (m->ocount < OSLOTS * 3 / 4) {
        for (int probe = 0; probe < OSLOTS; probe++) {
            int slot = (int)((h + (uint64_t)probe) & (OSLOTS - 1));
            if (!m->oval[slot]) {
                m->okey[slot] = code;
                Py_INCREF(value);
                m->oval[slot] = value;
                m->ocount++;
                break;
            }
        }
    }
    return value;
}

static void map_dealloc(MapObject *m) {
    if (m->rkey) {
        for (int k = 0; k < OSLOTS; k++) Py_XDECREF(m->rkey[k]);
        PyMem_Free(m->rkey);
        PyMem_Free(m->rval);
    }
    if (m->oval) {
        for (int k = 0; k < OSLOTS; k++) Py_XDECREF(m->oval[k]);
        PyMem_Free(m->oval);
        PyMem_Free(m->okey);
    }
    Py_TYPE(m)->tp_free((PyObject *)m);
}

/* movement_values(provs, powers, fleets, locs, who, table) -> lists of order values, as
 * movement_orders gives codes. */
static PyObject *map_movement_values(MapObject *self, PyObject *args) {
    PyObject *provs, *powers, *fleets, *locs, *table;
    int who;
    if (!PyArg_ParseTuple(args, "OOOOiO", &provs, &powers, &fleets, &locs, &who, &table))
        return NULL;
    Board b;
    if (read_units(self, provs, powers, fleets, locs, &b)) return NULL;
    /* Made afresh: building the values may run Python code (and so other threads). */
    Lists *lists = PyMem_Malloc(sizeof(Lists));
    if (!lists) return PyErr_NoMemory();
    PyObject *out = NULL;
    if (movement_lists(self, &b, who, lists)) {
        PyErr_NoMemory();
        goto done;
    }
    out = PyList_New(b.n_order);
    if (!out) goto done;
    for (int k = 0; k < b.n_order; k++) {
        Vec *v = &lists->per[b.order[k]];
        PyObject *l = PyList_New(v->n);
        if (!l) {
            Py_CLEAR(out);
            goto done;
        }
        PyList_SET_ITEM(out, k, l);
        for (int j = 0; j < v->n; j++) {
            PyObject *o = order_value(self, table, v->v[j]);
            if (!o) {
                Py_CLEAR(out);
                goto done;
            }
            PyList_SET_ITEM(l, j, o);
        }
    }
done:
    lists_free(lists, &b);
    PyMem_Free(lists);
    return out;
}

/* routes(fleets_mask, src) -> list of (dst, seas_mask) in discovery order */
static PyObject *map_routes(MapObject *self, PyObject *args) {
    PyObject *fleets_obj;
    int src;
    if (!PyArg_ParseTuple(args, "Oi", &fleets_obj, &src)) return NULL;
    mask_t fleets;
    if (long_to_mask(fleets_obj, &fleets)) return NULL;
    if (src < 0 || src >= self->P) return PyErr_Format(PyExc_ValueError, "no province %d", src);
    Routes r;
    minimal_routes(self, fleets, src, &r);
    PyObject *out = PyList_New(r.n);
    if (!out) return NULL;
    for (int k = 0; k < r.n; k++) {
        PyObject *seas = mask_to_long(r.seas[k]);
        if (!seas) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, k, Py_BuildValue("(iN)", r.dst[k], seas));
    }
    return out;
}


/* --- validation of movement orders (adjudicator.py stage one, legality.py) ------------ */

/* Illegal-order reasons, numbered as native.ILLEGAL lists them. */
enum {
    I_WRONG_PHASE, I_NO_UNIT, I_FOREIGN_UNIT, I_SAME_PLACE, I_UNREACHABLE, I_NEEDS_COAST,
    I_BAD_COAST, I_FLEET_CONVOYED, I_NOT_AT_SEA, I_NOT_ON_ROUTE, I_NOT_AN_ARMY,
    I_NOTHING_THERE, I_NOT_DISLODGED, I_RETREAT_BLOCKED
};
#define NOWHERE 255 /* a location code that is not on the map */

/* The location a fleet at `loc` moves to when ordered to `d` (DATC 4.B.1-4.B.3), or -1 and
 * the reason in *why. */
static int fleet_destination(const MapObject *m, int loc, int d, int *why) {
    if (d == NOWHERE || d >= m->L) {
        *why = I_UNREACHABLE;
        return -1;
    }
    int adj = 0;
    for (int k = 0; k < m->fleet_n[loc]; k++)
        if (m->fleet_adj[loc][k] == d) adj = 1;
    int prov = m->loc_province[d];
    if (m->loc_is_coast[d]) {
        if (adj) return d;
        *why = HAS(m->fleet_mask[loc], prov) ? I_BAD_COAST : I_UNREACHABLE;
        return -1;
    }
    if (m->ncoasts[prov]) {
        int reachable = -1, count = 0;
        for (int c = 0; c < m->ncoasts[prov]; c++)
            for (int k = 0; k < m->fleet_n[loc]; k++)
                if (m->fleet_adj[loc][k] == m->coasts[prov][c]) {
                    if (count == 0) reachable = m->coasts[prov][c];
                    count++;
                }
        if (count == 1) return reachable;
        *why = count ? I_NEEDS_COAST : I_UNREACHABLE;
        return -1;
    }
    if (adj) return d;
    *why = I_UNREACHABLE;
    return -1;
}

static int in_fleet_adj(const MapObject *m, int loc, int d) {
    for (int k = 0; k < m->fleet_n[loc]; k++)
        if (m->fleet_adj[loc][k] == d) return 1;
    return 0;
}

/* Check `ne` orders (codes, with the power giving each) against the units in slots; fills
 * the slot tables, each entry's slot and reason (-1: taken or repeated), and clashes. */
static void validate_slots(const MapObject *m, int n, const int *prov, const int *power,
                           const int *fleet, const int *loc, int ne, const long long *codes,
                           const int *epow, int *kind, int *dst, int *dloc, int *tgt, int *via,
                           int *eslot, int *ewhy, int *clash) {
    int slot_of[MAXP];
    for (int p = 0; p < m->P; p++) slot_of[p] = -1;
    mask_t fleets = 0;
    long long chosen[MAXP];
    for (int i = 0; i < n; i++) {
        slot_of[prov[i]] = i;
        if (fleet[i] && HAS(m->sea_mask, prov[i])) fleets |= BIT(prov[i]);
        kind[i] = M_HOLD;
        dst[i] = dloc[i] = tgt[i] = -1;
        via[i] = clash[i] = 0;
        chosen[i] = -1;
    }
    for (int e = 0; e < ne; e++) {
        long long code = codes[e];
        int pw = epow[e];
        int k = (int)(code & 15), ol = (int)(code >> 6 & 255), a = (int)(code >> 14 & 255),
            b = (int)(code >> 22 & 255), ovia = (int)(code >> 30 & 1);
        int slot = -1, why = -1;
        if (k > O_CONVOY) {
            why = I_WRONG_PHASE;
            goto record;
        }
        slot = ol < m->L ? slot_of[m->loc_province[ol]] : -1;
        if (slot < 0) {
            why = I_NO_UNIT;
            goto record;
        }
        if (power[slot] != pw) {
            why = I_FOREIGN_UNIT;
            goto record;
        }
        if (chosen[slot] >= 0) {
            if (chosen[slot] != code) clash[slot] = 1;
            goto record;
        }
        int src = prov[slot];
        int f = fleet[slot], here = loc[slot];
        mask_t reach = f ? m->fleet_mask[here] : m->army_mask[src];
        if (k == O_HOLD) {
            /* holds */
        } else if (k == O_MOVE) {
            if (a >= m->L) {
                why = I_UNREACHABLE;
            } else if (m->loc_province[a] == src) {
                why = I_SAME_PLACE;
            } else if (f) {
                if (ovia) {
                    why = I_FLEET_CONVOYED;
                } else {
                    int d = fleet_destination(m, here, a, &why);
                    if (d >= 0) {
                        kind[slot] = M_MOVE;
                        dloc[slot] = d;
                        dst[slot] = m->loc_province[d];
                    }
                }
            } else {
                int dp = m->loc_province[a];
                int needs = ovia || !HAS(m->army_mask[src], dp);
                if (needs && !route_possible(m, fleets, src, dp)) {
                    why = I_UNREACHABLE;
                } else {
                    kind[slot] = M_MOVE;
                    dloc[slot] = dst[slot] = dp;
                    via[slot] = ovia;
                }
            }
        } else if (k == O_SMOVE) {
            if (a >= m->L || b >= m->L) {
                why = a >= m->L ? I_NOTHING_THERE : I_UNREACHABLE;
            } else {
                int tprov = m->loc_province[a], dprov = m->loc_province[b];
                int j = slot_of[tprov];
                if (j < 0 || tprov == src) {
                    why = I_NOTHING_THERE;
                } else if (dprov == src || dprov == tprov || !HAS(reach, dprov)) {
                    why = I_UNREACHABLE;
                } else {
                    int coast = b != dprov ? b : -1;
                    if (fleet[j]) {
                        if (coast >= 0) {
                            if (!in_fleet_adj(m, loc[j], coast)) why = I_BAD_COAST;
                        } else if (!HAS(m->fleet_mask[loc[j]], dprov)) {
                            why = I_UNREACHABLE;
                        }
                    } else {
                        coast = -1;
                        if (!HAS(m->army_mask[tprov], dprov)) {
                            mask_t usable = f ? fleets & ~BIT(src) : fleets;
                            if (!route_possible(m, usable, tprov, dprov)) why = I_UNREACHABLE;
                        }
                    }
                    if (why < 0) {
                        kind[slot] = M_SUPPORT;
                        tgt[slot] = j;
                        dst[slot] = dprov;
                        dloc[slot] = coast;
                    }
                }
            }
        } else if (k == O_SHOLD) {
            int tp = a < m->L ? m->loc_province[a] : -1;
            int j = tp < 0 ? -1 : slot_of[tp];
            if (j < 0 || j == slot) {
                why = I_NOTHING_THERE;
            } else if (!HAS(reach, tp)) {
                why = I_UNREACHABLE;
            } else {
                kind[slot] = M_SUPPORT;
                tgt[slot] = j;
                dst[slot] = tp;
                dloc[slot] = -2;
            }
        } else { /* convoy */
            if (!f || !HAS(m->sea_mask, src)) {
                why = I_NOT_AT_SEA;
            } else if (a >= m->L || b >= m->L) {
                why = a >= m->L ? I_NOTHING_THERE : I_UNREACHABLE;
            } else {
                int aprov = m->loc_province[a], dprov = m->loc_province[b];
                int j = slot_of[aprov];
                if (j < 0) {
                    why = I_NOTHING_THERE;
                } else if (fleet[j]) {
                    why = I_NOT_AN_ARMY;
                } else if (aprov == dprov) {
                    why = I_SAME_PLACE;
                } else {
                    int found;
                    mask_t seas = route_seas(m, fleets, aprov, dprov, &found);
                    if (!HAS(seas, src)) {
                        why = I_NOT_ON_ROUTE;
                    } else {
                        kind[slot] = M_CONVOY;
                        tgt[slot] = j;
                        dst[slot] = dprov;
                    }
                }
            }
        }
        if (why < 0) chosen[slot] = code;
    record:
        eslot[e] = slot;
        ewhy[e] = why;
    }
    for (int i = 0; i < n; i++)
        if (clash[i]) kind[i] = M_HOLD;
}

#define MAXE 1024 /* orders in one call */

/* The code of an order value: by identity from this map's table, else `table.code(order)`
 * (then kept). Returns -1 with an exception set on failure. */
static long long order_code(MapObject *m, PyObject *table, PyObject *order) {
    if (!m->rkey) {
        m->rkey = PyMem_Calloc(OSLOTS, sizeof(PyObject *));
        m->rval = PyMem_Calloc(OSLOTS, sizeof(long long));
        if (!m->rkey || !m->rval) {
            PyMem_Free(m->rkey);
            PyMem_Free(m->rval);
            m->rkey = NULL;
            m->rval = NULL;
            PyErr_NoMemory();
            return -1;
        }
    }
    uint64_t h = ((uint64_t)(uintptr_t)order * 0x9E3779B97F4A7C15ULL) >> 50;
    for (int probe = 0; probe < OSLOTS; probe++) {
        int slot = (int)((h + (uint64_t)probe) & (OSLOTS - 1));
        if (!m->rkey[slot]) break;
        if (m->rkey[slot] == order) return m->rval[slot];
    }
    PyObject *found = PyObject_CallMethod(table, "code", "O", order);
    if (!found) return -1;
    long long code = PyLong_AsLongLong(found);
    Py_DECREF(found);
    if (code == -1 && PyErr_Occurred()) return -1;
    if (m->rcount < OSLOTS / 2) {
        for (int probe = 0; probe < OSLOTS; probe++) {
            int slot = (int)((h + (uint64_t)probe) & (OSLOTS - 1));
            if (!m->rkey[slot]) {
                Py_INCREF(order);
                m->rkey[slot] = order;
                m->rval[slot] = code;
                m->rcount++;
                break;
            }
        }
    }
    return code;
}

/* validate_values(provs, powers, fleets, locs, entry_powers, orders, names, table, illegal)
 *   -> (kinds, dsts, dlocs, tgts, vias, entries, clashes)
 * As `validate`, from order values; entries are (power name, order, slot, Reason or None)
 * and clashes a set of slots. */
static PyObject *map_validate_values(MapObject *self, PyObject *args) {
    PyObject *provs_o, *powers_o, *fleets_o, *locs_o, *epow_o, *orders, *names, *table, *illegal;
    if (!PyArg_ParseTuple(args, "OOOOOO!O!OO!", &provs_o, &powers_o, &fleets_o, &locs_o, &epow_o,
                          &PyList_Type, &orders, &PyList_Type, &names, &table, &PyTuple_Type,
                          &illegal))
        return NULL;
    int prov[MAXP], power[MAXP], fleet[MAXP], loc[MAXP];
    Py_ssize_t n = read_ints(provs_o, prov, MAXP, "provinces");
    if (n < 0) return NULL;
    if (read_ints(powers_o, power, MAXP, "powers") != n ||
        read_ints(fleets_o, fleet, MAXP, "fleets") != n ||
        read_ints(locs_o, loc, MAXP, "locations") != n) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "unit tables differ");
        return NULL;
    }
    uint8_t seen[MAXP] = {0};
    for (int i = 0; i < n; i++) {
        if (prov[i] < 0 || prov[i] >= self->P || loc[i] < 0 || loc[i] >= self->L ||
            seen[prov[i]]) {
            PyErr_SetString(PyExc_ValueError, "unit outside the map, or doubled");
            return NULL;
        }
        seen[prov[i]] = 1;
    }
    /* On the stack: finding codes may run Python code (and so other threads). */
    long long codes[MAXE];
    int epow[MAXE], eslot[MAXE], ewhy[MAXE];
    Py_ssize_t ne = read_ints(epow_o, epow, MAXE, "entry powers");
    if (ne < 0) return NULL;
    if (PyList_GET_SIZE(orders) != ne || PyList_GET_SIZE(names) != ne) {
        PyErr_SetString(PyExc_ValueError, "entry tables differ");
        return NULL;
    }
    for (Py_ssize_t e = 0; e < ne; e++) {
        codes[e] = order_code(self, table, PyList_GET_ITEM(orders, e));
        if (codes[e] == -1 && PyErr_Occurred()) return NULL;
    }
    int kind[MAXP], dst[MAXP], dloc[MAXP], tgt[MAXP], via[MAXP], clash[MAXP];
    validate_slots(self, (int)n, prov, power, fleet, loc, (int)ne, codes, epow, kind, dst, dloc,
                   tgt, via, eslot, ewhy, clash);
    PyObject *entries = PyList_New(ne), *clashes = PySet_New(NULL), *vias = PyList_New(n);
    if (!entries || !clashes || !vias) goto fail;
    for (Py_ssize_t e = 0; e < ne; e++) {
        PyObject *why = ewhy[e] < 0 ? Py_None : PyTuple_GetItem(illegal, ewhy[e]);
        if (!why) goto fail;
        PyObject *t = PyTuple_New(4);
        if (!t) goto fail;
        PyObject *name = PyList_GET_ITEM(names, e), *order = PyList_GET_ITEM(orders, e);
        Py_INCREF(name);
        Py_INCREF(order);
        Py_INCREF(why);
        PyTuple_SET_ITEM(t, 0, name);
        PyTuple_SET_ITEM(t, 1, order);
        PyTuple_SET_ITEM(t, 2, PyLong_FromLong(eslot[e]));
        PyTuple_SET_ITEM(t, 3, why);
        PyList_SET_ITEM(entries, e, t);
    }
    for (int i = 0; i < n; i++) {
        PyList_SET_ITEM(vias, i, PyBool_FromLong(via[i]));
        if (clash[i]) {
            PyObject *x = PyLong_FromLong(i);
            if (!x || PySet_Add(clashes, x)) {
                Py_XDECREF(x);
                goto fail;
            }
            Py_DECREF(x);
        }
    }
    return Py_BuildValue("(NNNNNNN)", ints_to_list(kind, n), ints_to_list(dst, n),
                         ints_to_list(dloc, n), ints_to_list(tgt, n), vias, entries, clashes);
fail:
    Py_XDECREF(entries);
    Py_XDECREF(clashes);
    Py_XDECREF(vias);
    return NULL;
}

/* --- movement resolution (adjudicator.py) -------------------------------------------- */

typedef struct {
    const MapObject *m;
    int n;
    int prov[MAXP], power[MAXP], fleet[MAXP], kind[MAXP], dst[MAXP], dloc[MAXP], tgt[MAXP],
        via[MAXP];
    int slot_of[MAXP];
    int convoyed[MAXP], h2h[MAXP];
    mask_t cmask[MAXP];
    int fleet_at[MAXP];
    int nsup[MAXP], sup[MAXP][MAXP];
    int natt[MAXP], att[MAXP][MAXP]; /* attackers by destination province */
    int moves[MAXP], nmoves, supports[MAXP], nsupports, convoying[MAXP], nconvoying;
    uint8_t res[MAXP], done[MAXP], visited[MAXP], in_cycle[MAXP], paradox[MAXP];
    int cycle[MAXP * 4], ncycle;
    int guess_based, hits;
} Solver;

/* The solver is large (two 128 x 128 tables), so one is kept for reuse. A call made while it
 * is in use (another thread ran while this one was in Python code, say a finaliser during an
 * allocation) gets a fresh one. */
static Solver shared_solver;
static int shared_solver_busy = 0;

static Solver *solver_take(void) {
    if (!shared_solver_busy) {
        shared_solver_busy = 1;
        return &shared_solver;
    }
    return PyMem_Malloc(sizeof(Solver));
}

static void solver_give(Solver *s) {
    if (s == &shared_solver)
        shared_solver_busy = 0;
    else
        PyMem_Free(s);
}

static int resolve(Solver *s, int i);
static int adjudicate(Solver *s, int i);

static int support_count(Solver *s, int i, int not_power) {
    int count = 1;
    for (int k = 0; k < s->nsup[i]; k++) {
        int x = s->sup[i][k];
        if (s->power[x] != not_power && resolve(s, x)) count++;
    }
    return count;
}

static int path(Solver *s, int i) {
    const MapObject *m = s->m;
    mask_t mask = s->cmask[i];
    mask_t frontier = m->seas_near[s->prov[i]] & mask;
    mask_t seen = frontier;
    mask_t target = BIT(s->dst[i]);
    while (frontier) {
        mask_t nxt = 0;
        for (mask_t f = frontier; f; f &= f - 1) {
            int sea = low_bit(f);
            if (resolve(s, s->fleet_at[sea])) {
                if (m->sea_coasts[sea] & target) return 1;
                nxt |= m->sea_adj[sea];
            }
        }
        frontier = nxt & mask & ~seen;
        seen |= frontier;
    }
    return 0;
}

static int hold_strength(Solver *s, int p) {
    int u = s->slot_of[p];
    if (u < 0) return 0;
    if (s->kind[u] == M_MOVE) return resolve(s, u) ? 0 : 1;
    return support_count(s, u, -1);
}

static int attack_strength(Solver *s, int i) {
    int u = s->slot_of[s->dst[i]];
    if (u < 0 || (s->h2h[i] < 0 && s->kind[u] == M_MOVE && resolve(s, u)))
        return support_count(s, i, -1);
    if (s->power[u] == s->power[i]) return 0;
    return support_count(s, i, s->power[u]);
}

static int prevent_strength(Solver *s, int k) {
    if (s->convoyed[k] && !path(s, k)) return 0;
    int j = s->h2h[k];
    if (j >= 0 && resolve(s, j)) return 0;
    return support_count(s, k, -1);
}

static int adjudicate(Solver *s, int i) {
    int k = s->kind[i];
    if (k == M_MOVE) {
        if (s->convoyed[i] && !path(s, i)) return 0;
        int attack = attack_strength(s, i);
        if (attack == 0) return 0;
        int j = s->h2h[i];
        if (j >= 0) {
            if (attack <= support_count(s, j, -1)) return 0;
        } else if (attack <= hold_strength(s, s->dst[i])) {
            return 0;
        }
        int d = s->dst[i];
        for (int x = 0; x < s->natt[d]; x++) {
            int other = s->att[d][x];
            if (other != i && attack <= prevent_strength(s, other)) return 0;
        }
        return 1;
    }
    int me = s->power[i];
    int here = s->prov[i];
    if (k == M_SUPPORT) {
        int aim = s->dst[i];
        for (int x = 0; x < s->natt[here]; x++) {
            int a = s->att[here][x];
            if (s->power[a] == me) continue;
            if (s->prov[a] != aim) {
                if (!s->convoyed[a] || path(s, a)) return 0;
            } else if (resolve(s, a)) {
                return 0;
            }
        }
        return 1;
    }
    for (int x = 0; x < s->natt[here]; x++) {
        int a = s->att[here][x];
        if (s->power[a] != me && adjudicate(s, a)) return 0;
    }
    return 1;
}

static void clear_cycle(Solver *s, int start) {
    for (int x = start; x < s->ncycle; x++) s->in_cycle[s->cycle[x]] = 0;
    s->ncycle = start;
}

static void backup(Solver *s, const int *members, int n) {
    int convoys = 0, everything_moves = 1;
    for (int x = 0; x < n; x++) {
        if (s->kind[members[x]] == M_CONVOY) convoys = 1;
        if (s->kind[members[x]] != M_MOVE) everything_moves = 0;
    }
    for (int x = 0; x < n; x++) {
        int i = members[x];
        if (convoys) {
            if (s->kind[i] == M_CONVOY) {
                s->res[i] = 0;
                s->done[i] = 1;
                s->paradox[i] = 1;
            }
        } else {
            s->res[i] = (uint8_t)everything_moves;
            s->done[i] = 1;
        }
    }
}

static int resolve(Solver *s, int i) {
    if (s->done[i]) return s->res[i];
    if (s->in_cycle[i]) {
        s->guess_based = 1;
        return s->res[i];
    }
    if (s->visited[i]) {
        s->cycle[s->ncycle++] = i;
        s->in_cycle[i] = 1;
        s->guess_based = 1;
        s->hits++;
        return s->res[i];
    }
    s->visited[i] = 1;
    int old_len = s->ncycle, old_guess = s->guess_based, old_hits = s->hits;
    s->guess_based = 0;
    s->res[i] = 0;
    int first = adjudicate(s, i);
    if (!s->guess_based) {
        s->guess_based = old_guess;
        s->res[i] = (uint8_t)first;
        s->done[i] = 1;
        s->visited[i] = 0;
        return first;
    }
    if (s->in_cycle[i]) s->hits--;
    if (s->hits == old_hits) {
        clear_cycle(s, old_len);
        s->res[i] = 1;
        int second = adjudicate(s, i);
        s->hits = old_hits;
        if (first == second) {
            clear_cycle(s, old_len);
            s->guess_based = old_guess;
            s->res[i] = (uint8_t)first;
            s->done[i] = 1;
            s->visited[i] = 0;
            return first;
        }
        int members[MAXP * 4], n = 0, seen_i = 0;
        for (int x = old_len; x < s->ncycle; x++) {
            members[n++] = s->cycle[x];
            if (s->cycle[x] == i) seen_i = 1;
        }
        if (!seen_i) members[n++] = i;
        clear_cycle(s, old_len);
        backup(s, members, n);
        s->guess_based = old_guess;
        s->visited[i] = 0;
        return resolve(s, i);
    }
    if (!s->in_cycle[i]) {
        s->cycle[s->ncycle++] = i;
        s->in_cycle[i] = 1;
    }
    s->res[i] = (uint8_t)first;
    s->visited[i] = 0;
    return first;
}

/* Matching (intent to convoy, which supports and convoys match) and the solve. */
static void solve(Solver *s) {
    const MapObject *m = s->m;
    int n = s->n;
    s->nmoves = s->nsupports = s->nconvoying = 0;
    for (int i = 0; i < n; i++) {
        s->convoyed[i] = 0;
        s->cmask[i] = 0;
        s->nsup[i] = 0;
        s->h2h[i] = -1;
        s->res[i] = s->done[i] = s->visited[i] = s->in_cycle[i] = s->paradox[i] = 0;
        if (s->kind[i] == M_MOVE) s->moves[s->nmoves++] = i;
        else if (s->kind[i] == M_SUPPORT) s->supports[s->nsupports++] = i;
        else if (s->kind[i] == M_CONVOY) s->convoying[s->nconvoying++] = i;
    }
    for (int p = 0; p < m->P; p++) s->natt[p] = 0;
    for (int x = 0; x < s->nmoves; x++) {
        int i = s->moves[x], d = s->dst[i];
        if (!s->fleet[i]) {
            int c = s->via[i] || !HAS(m->army_mask[s->prov[i]], d);
            for (int y = 0; !c && y < s->nconvoying; y++) {
                int f = s->convoying[y];
                if (s->tgt[f] == i && s->dst[f] == d && s->power[f] == s->power[i]) c = 1;
            }
            s->convoyed[i] = c;
        }
        s->att[d][s->natt[d]++] = i;
    }
    for (int y = 0; y < s->nconvoying; y++) {
        int f = s->convoying[y], a = s->tgt[f];
        if (s->kind[a] == M_MOVE && s->dst[a] == s->dst[f] && s->convoyed[a]) {
            s->cmask[a] |= BIT(s->prov[f]);
            s->fleet_at[s->prov[f]] = f;
        } else {
            s->kind[f] = M_VOID;
        }
    }
    for (int y = 0; y < s->nsupports; y++) {
        int i = s->supports[y], t = s->tgt[i], ok;
        if (s->dloc[i] == -2)
            ok = s->kind[t] != M_MOVE;
        else
            ok = s->kind[t] == M_MOVE && s->dst[t] == s->dst[i] &&
                 (s->dloc[i] < 0 || !s->fleet[t] || s->dloc[t] == s->dloc[i]);
        if (ok)
            s->sup[t][s->nsup[t]++] = i;
        else
            s->kind[i] = M_VOID;
    }
    for (int x = 0; x < s->nmoves; x++) {
        int i = s->moves[x];
        if (!s->convoyed[i]) {
            int j = s->slot_of[s->dst[i]];
            if (j >= 0 && s->kind[j] == M_MOVE && s->dst[j] == s->prov[i] && !s->convoyed[j])
                s->h2h[i] = j;
        }
    }
    s->ncycle = 0;
    s->guess_based = 0;
    s->hits = 0;
    int backing[MAXP], nb = 0;
    for (int y = 0; y < s->nsupports; y++)
        if (s->kind[s->supports[y]] != M_VOID) backing[nb++] = s->supports[y];
    for (int y = 0; y < s->nconvoying; y++)
        if (s->kind[s->convoying[y]] != M_VOID) backing[nb++] = s->convoying[y];
    for (int y = 0; y < nb; y++) {
        int i = backing[y];
        if (!s->natt[s->prov[i]]) s->res[i] = s->done[i] = 1;
    }
    for (int x = 0; x < s->nmoves; x++)
        if (!s->done[s->moves[x]]) resolve(s, s->moves[x]);
    for (int y = 0; y < nb; y++)
        if (!s->done[backing[y]]) resolve(s, backing[y]);
}

/* Why a slot's order ended as it did: reason, and the slots it names (-1: unknown). */
static int explain(Solver *s, int slot, int hit, int *who, int *nwho) {
    int k = s->kind[slot];
    *nwho = 0;
    if (k == M_MOVE) {
        if (s->res[slot]) return R_MOVED;
        if (s->convoyed[slot] && !path(s, slot)) {
            if (!s->cmask[slot]) return R_NO_CONVOY;
            for (int y = 0; y < s->nconvoying; y++) {
                int f = s->convoying[y];
                if (s->kind[f] != M_VOID && HAS(s->cmask[slot], s->prov[f]) && s->paradox[f])
                    return R_PARADOX;
            }
            return R_CONVOY_DISRUPTED;
        }
        int attack = attack_strength(s, slot);
        int d = s->dst[slot];
        int u = s->slot_of[d];
        if (attack == 0 && u >= 0) {
            int full = support_count(s, slot, -1);
            for (int x = 0; x < s->natt[d]; x++) {
                int o = s->att[d][x];
                if (o != slot && full <= prevent_strength(s, o)) who[(*nwho)++] = o;
            }
            if (*nwho) return R_BOUNCED;
            who[(*nwho)++] = u;
            return R_OWN_UNIT;
        }
        int j = s->h2h[slot];
        if (j >= 0) {
            if (attack <= support_count(s, j, -1)) who[(*nwho)++] = j;
        } else if (u >= 0 && attack <= hold_strength(s, d)) {
            who[(*nwho)++] = u;
        }
        for (int x = 0; x < s->natt[d]; x++) {
            int o = s->att[d][x];
            if (o != slot && attack <= prevent_strength(s, o)) who[(*nwho)++] = o;
        }
        return R_BOUNCED;
    }
    if (k == M_SUPPORT) {
        if (s->res[slot]) return R_SUPPORTED;
        if (hit >= 0) {
            who[(*nwho)++] = hit;
            return R_DISLODGED;
        }
        int here = s->prov[slot];
        for (int x = 0; x < s->natt[here]; x++) {
            int a = s->att[here][x];
            if (s->power[a] != s->power[slot] && s->prov[a] != s->dst[slot] &&
                (!s->convoyed[a] || path(s, a)))
                who[(*nwho)++] = a;
        }
        return R_CUT;
    }
    if (k == M_CONVOY) {
        if (s->res[slot]) return R_CONVOYED;
        if (s->paradox[slot]) return R_PARADOX;
        who[(*nwho)++] = hit; /* -1 reads as "?" */
        return R_DISLODGED;
    }
    if (k == M_VOID) {
        who[(*nwho)++] = s->tgt[slot];
        return R_UNMATCHED;
    }
    if (hit >= 0) {
        who[(*nwho)++] = hit;
        return R_DISLODGED;
    }
    return R_HELD;
}

/* resolve(provs, powers, fleets, locs, kinds, dsts, dlocs, tgts, vias) ->
 *   (kinds, results, beaten_by, reasons, whos, units, dislodged, contested_mask)
 * results[i] is 1 when the order succeeded; reasons are for the order the slot followed;
 * units are (prov, power, fleet, loc) of the next position in the Python dict's order;
 * dislodged are (prov, power, fleet, loc, attacker_from). */
static PyObject *map_resolve(MapObject *self, PyObject *args) {
    PyObject *a[9];
    if (!PyArg_ParseTuple(args, "OOOOOOOOO", &a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &a[6],
                          &a[7], &a[8]))
        return NULL;
    Solver *s = solver_take();
    if (!s) return PyErr_NoMemory();
    PyObject *out = NULL;
    s->m = self;
    Py_ssize_t n = read_ints(a[0], s->prov, MAXP, "provinces");
    if (n < 0) goto done;
    int *fields[8] = {s->power, s->fleet, NULL, s->kind, s->dst, s->dloc, s->tgt, s->via};
    int locs[MAXP];
    fields[2] = locs;
    for (int f = 0; f < 8; f++) {
        if (read_ints(a[f + 1], fields[f], MAXP, "slot table") != n) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "slot tables differ");
            goto done;
        }
    }
    s->n = (int)n;
    for (int i = 0; i < n; i++) {
        int bad = s->prov[i] < 0 || s->prov[i] >= self->P || locs[i] < 0 || locs[i] >= self->L ||
                  s->kind[i] < M_HOLD || s->kind[i] > M_CONVOY || s->tgt[i] < -1 ||
                  s->tgt[i] >= n || s->dst[i] < -1 || s->dst[i] >= self->P ||
                  s->dloc[i] < -2 || s->dloc[i] >= self->L ||
                  (s->kind[i] != M_HOLD && s->dst[i] < 0) ||
                  ((s->kind[i] == M_SUPPORT || s->kind[i] == M_CONVOY) && s->tgt[i] < 0);
        if (bad) {
            PyErr_Format(PyExc_ValueError, "slot %d: tables out of range", i);
            goto done;
        }
    }
    for (int p = 0; p < self->P; p++) s->slot_of[p] = -1;
    for (int i = 0; i < n; i++) {
        if (s->slot_of[s->prov[i]] >= 0) {
            PyErr_SetString(PyExc_ValueError, "two slots in one province");
            goto done;
        }
        s->slot_of[s->prov[i]] = i;
    }
    solve(s);
    /* The next position. */
    int winner[MAXP];
    for (int p = 0; p < self->P; p++) winner[p] = -1;
    for (int x = 0; x < s->nmoves; x++)
        if (s->res[s->moves[x]]) winner[s->dst[s->moves[x]]] = s->moves[x];
    int beaten[MAXP];
    mask_t staying = 0;
    if (!piece_type) {
        PyErr_SetString(PyExc_RuntimeError, "the native core is not configured");
        goto done;
    }
    PyObject *units = PyDict_New(), *dislodged = PyDict_New();
    PyObject *kinds = PyList_New(n), *results = PyList_New(n), *beaten_by = PyList_New(n);
    PyObject *reasons = PyList_New(n), *whos = PyList_New(n);
    if (!units || !dislodged || !kinds || !results || !beaten_by || !reasons || !whos) goto fail;
    for (int i = 0; i < n; i++) {
        beaten[i] = -1;
        if (s->kind[i] == M_MOVE && s->res[i]) continue;
        int p = s->prov[i], b = winner[p];
        PyObject *key = PyLong_FromLong(p), *val;
        if (b >= 0) {
            beaten[i] = b;
            PyObject *items[2] = {make_piece(s->power[i], s->fleet[i], locs[i]),
                                  PyLong_FromLong(s->convoyed[b] ? -1 : s->prov[b])};
            val = record(dislodged_type, 2, items);
            if (!key || !val || PyDict_SetItem(dislodged, key, val)) goto fail_t;
        } else {
            staying |= BIT(p);
            val = make_piece(s->power[i], s->fleet[i], locs[i]);
            if (!key || !val || PyDict_SetItem(units, key, val)) goto fail_t;
        }
        Py_DECREF(key);
        Py_DECREF(val);
        continue;
    fail_t:
        Py_XDECREF(key);
        Py_XDECREF(val);
        goto fail;
    }
    for (int x = 0; x < s->nmoves; x++) {
        int i = s->moves[x];
        if (!s->res[i]) continue;
        PyObject *key = PyLong_FromLong(s->dst[i]);
        PyObject *val = make_piece(s->power[i], s->fleet[i], s->dloc[i]);
        if (!key || !val || PyDict_SetItem(units, key, val)) {
            Py_XDECREF(key);
            Py_XDECREF(val);
            goto fail;
        }
        Py_DECREF(key);
        Py_DECREF(val);
    }
    for (int i = 0; i < n; i++) {
        int who[MAXP], nwho;
        int reason = explain(s, i, beaten[i], who, &nwho);
        PyList_SET_ITEM(kinds, i, PyLong_FromLong(s->kind[i]));
        PyList_SET_ITEM(results, i, PyBool_FromLong(s->res[i]));
        PyList_SET_ITEM(beaten_by, i, PyLong_FromLong(beaten[i]));
        PyList_SET_ITEM(reasons, i, PyLong_FromLong(reason));
        PyObject *w = PyTuple_New(nwho);
        if (!w) goto fail;
        for (int x = 0; x < nwho; x++) PyTuple_SET_ITEM(w, x, PyLong_FromLong(who[x]));
        PyList_SET_ITEM(whos, i, w);
    }
    mask_t contested = 0;
    for (int p = 0; p < self->P; p++) {
        if (!s->natt[p] || winner[p] >= 0 || HAS(staying, p)) continue;
        for (int x = 0; x < s->natt[p]; x++)
            if (prevent_strength(s, s->att[p][x]) > 0) {
                contested |= BIT(p);
                break;
            }
    }
    PyObject *cmask = mask_to_long(contested);
    if (!cmask) goto fail;
    out = Py_BuildValue("(NNNNNNNN)", kinds, results, beaten_by, reasons, whos, units, dislodged,
                        cmask);
    goto done;
fail:
    Py_XDECREF(units);
    Py_XDECREF(dislodged);
    Py_XDECREF(kinds);
    Py_XDECREF(results);
    Py_XDECREF(beaten_by);
    Py_XDECREF(reasons);
    Py_XDECREF(whos);
done:
    solver_give(s);
    return out;
}



/* --- reading orders written in the canonical notation ---------------------------------- */

/* set_codes(location codes): enables `parse`. */
static PyObject *map_set_codes(MapObject *self, PyObject *arg) {
    PyObject *fast = PySequence_Fast(arg, "location codes");
    if (!fast) return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != self->L) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "one code per location");
        return NULL;
    }
    for (int i = 0; i < 26 * 26 * 26; i++) self->by_code[i] = -1;
    for (int l = 0; l < self->L; l++) {
        const char *code = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(fast, l));
        if (!code) {
            Py_DECREF(fast);
            return NULL;
        }
        size_t len = strlen(code);
        self->coast_of[l][0] = 0;
        if (len == 3 && code[0] >= 'A' && code[0] <= 'Z' && code[1] >= 'A' && code[1] <= 'Z' &&
            code[2] >= 'A' && code[2] <= 'Z') {
            self->by_code[(code[0] - 'A') * 676 + (code[1] - 'A') * 26 + (code[2] - 'A')] =
                (int16_t)l;
        } else if (len == 6 && code[3] == '/') {
            self->coast_of[l][0] = code[4];
            self->coast_of[l][1] = code[5];
            self->coast_of[l][2] = 0;
        }
    }
    Py_DECREF(fast);
    self->has_codes = 1;
    Py_RETURN_NONE;
}

#define MAXTOK 12

static char up(char c) { return (c >= 'a' && c <= 'z') ? (char)(c - 32) : c; }

/* A location from a token (`PAR`, `stp/sc`), or -1 when it is not exactly a known code. */
static int token_location(const MapObject *m, const char *t, int len) {
    char c[6];
    if (len != 3 && len != 6) return -1;
    for (int i = 0; i < len; i++) c[i] = up(t[i]);
    for (int i = 0; i < 3; i++)
        if (c[i] < 'A' || c[i] > 'Z') return -1;
    int prov = m->by_code[(c[0] - 'A') * 676 + (c[1] - 'A') * 26 + (c[2] - 'A')];
    if (prov < 0 || len == 3) return prov;
    if (c[3] != '/') return -1;
    for (int k = 0; k < m->ncoasts[prov]; k++) {
        int l = m->coasts[prov][k];
        if (m->coast_of[l][0] == c[4] && m->coast_of[l][1] == c[5]) return l;
    }
    return -1;
}

/* The order code of canonical text (`A PAR - BUR`, `F NTH C A LON - NWY`, `A MUN S A BER`,
 * `F STP/SC B`, `WAIVE`, ...), or -1 when the text is anything else: the Python parser then
 * reads it, with its lenient grammar and its error messages. */
static long long parse_text(const MapObject *m, const char *s, Py_ssize_t len, int retreat) {
    const char *tok[MAXTOK];
    int tlen[MAXTOK], n = 0;
    for (Py_ssize_t i = 0; i < len;) {
        while (i < len && s[i] == ' ') i++;
        if (i >= len) break;
        if (n == MAXTOK) return -1;
        tok[n] = s + i;
        Py_ssize_t j = i;
        while (j < len && s[j] != ' ') j++;
        tlen[n++] = (int)(j - i);
        i = j;
    }
    if (n == 1 && tlen[0] == 5 && strncasecmp(tok[0], "WAIVE", 5) == 0) return ENC(O_WAIVE, 0, 0, 0, 0, 0, 0);
    if (n < 2) return -1;
    int at = 0;
    long long unit; /* fleet bit, or the no-letter bit */
    if (tlen[0] == 1 && (up(tok[0][0]) == 'A' || up(tok[0][0]) == 'F')) {
        unit = up(tok[0][0]) == 'F' ? (1LL << 4) : 0;
        at = 1;
    } else {
        unit = 1LL << 31;
    }
    int loc = token_location(m, tok[at], tlen[at]);
    if (loc < 0) return -1;
    at++;
    if (at >= n || tlen[at] != 1) return -1;
    char verb = up(tok[at][0]);
    at++;
    int rest = n - at;
    if (verb == 'H' && rest == 0) return retreat ? -1 : (unit | ENC(O_HOLD, 0, 0, loc, 0, 0, 0));
    if (verb == 'D' && rest == 0) return unit | ENC(O_DISBAND, 0, 0, loc, 0, 0, 0);
    if (verb == 'B' && rest == 0) return unit | ENC(O_BUILD, 0, 0, loc, 0, 0, 0);
    if (verb == 'R' && rest == 1) {
        int d = token_location(m, tok[at], tlen[at]);
        return d < 0 ? -1 : (unit | ENC(O_RETREAT, 0, 0, loc, d, 0, 0));
    }
    if (verb == '-' && (rest == 1 || rest == 2)) {
        int d = token_location(m, tok[at], tlen[at]);
        if (d < 0) return -1;
        int via = 0;
        if (rest == 2) {
            if (tlen[at + 1] != 3 || strncasecmp(tok[at + 1], "VIA", 3) != 0 || retreat) return -1;
            via = 1;
        }
        if (retreat) return unit | ENC(O_RETREAT, 0, 0, loc, d, 0, 0);
        return unit | ENC(O_MOVE, 0, 0, loc, d, 0, via);
    }
    if (retreat) return -1;
    if (verb == 'S' && rest >= 1) {
        long long tunit = 1LL << 32;
        if (tlen[at] == 1 && (up(tok[at][0]) == 'A' || up(tok[at][0]) == 'F')) {
            tunit = up(tok[at][0]) == 'F' ? (1LL << 5) : 0;
            at++;
            rest--;
        }
        if (rest < 1) return -1;
        int t = token_location(m, tok[at], tlen[at]);
        if (t < 0) return -1;
        if (rest == 1) return unit | tunit | ENC(O_SHOLD, 0, 0, loc, t, 0, 0);
        if (rest == 2 && tlen[at + 1] == 1 && up(tok[at + 1][0]) == 'H')
            return unit | tunit | ENC(O_SHOLD, 0, 0, loc, t, 0, 0);
        if (rest == 3 && tlen[at + 1] == 1 && tok[at + 1][0] == '-') {
            int d = token_location(m, tok[at + 2], tlen[at + 2]);
            return d < 0 ? -1 : (unit | tunit | ENC(O_SMOVE, 0, 0, loc, t, d, 0));
        }
        return -1;
    }
    if (verb == 'C' && (rest == 3 || rest == 4)) {
        if (rest == 4) {
            if (tlen[at] != 1 || (up(tok[at][0]) != 'A' && up(tok[at][0]) != 'F')) return -1;
            at++;
        }
        int a = token_location(m, tok[at], tlen[at]);
        if (a < 0 || tlen[at + 1] != 1 || tok[at + 1][0] != '-') return -1;
        int d = token_location(m, tok[at + 2], tlen[at + 2]);
        return d < 0 ? -1 : (unit | ENC(O_CONVOY, 0, 0, loc, a, d, 0));
    }
    return -1;
}

/* parse(text, retreat_phase) -> order code, or -1 (not canonical: use the Python parser) */
static PyObject *map_parse(MapObject *self, PyObject *args) {
    PyObject *text;
    int retreat = 0;
    if (!PyArg_ParseTuple(args, "U|p", &text, &retreat)) return NULL;
    if (!self->has_codes) return PyLong_FromLong(-1);
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(text, &len);
    if (!s) return NULL;
    return PyLong_FromLongLong(parse_text(self, s, len, retreat));
}

/* --- a game on native tables: the batched API (phases.py, retreats.py, adjustments.py) --- */

enum { S_SPRING, S_FALL, S_WINTER };
enum { P_MOVEMENT, P_RETREAT, P_ADJUSTMENT };
enum { CD_SEED, CD_2023 };

typedef struct {
    PyObject_HEAD
    MapObject *map;
    Board b;
    int season, year, kind;
    int year_limit, rule;
    int ended, winner; /* winner: power index, or -1 for a draw / nobody */
} GameObject;

static PyTypeObject GameType;

static void order_units(const MapObject *m, Board *b) {
    b->n_order = 0;
    for (int p = 0; p < m->P; p++)
        if (b->power[p] >= 0) b->order[b->n_order++] = (uint8_t)p;
}

static void counts(const MapObject *m, const Board *b, int *centres, int *units) {
    for (int k = 0; k < m->powers; k++) centres[k] = units[k] = 0;
    for (int p = 0; p < m->P; p++) {
        if (b->owner[p] >= 0) centres[b->owner[p]]++;
        if (b->power[p] >= 0) units[b->power[p]]++;
    }
}

static int free_homes(const MapObject *m, const Board *b, int power, int *out) {
    int n = 0;
    for (int k = 0; k < m->nhomes[power]; k++) {
        int c = m->homes[power][k];
        if (b->owner[c] == power && b->power[c] < 0) {
            if (out) out[n] = c;
            n++;
        }
    }
    return n;
}

static void adjustment_counts(const MapObject *m, const Board *b, int *owed) {
    int centres[MAXPOW], units[MAXPOW];
    counts(m, b, centres, units);
    for (int k = 0; k < m->powers; k++) {
        int delta = centres[k] - units[k];
        if (delta > 0) {
            int free = free_homes(m, b, k, NULL);
            if (free < delta) delta = free;
        }
        owed[k] = delta;
    }
}

/* The end of the game, if it has come (phases.ending). */
static int check_ending(GameObject *g, int after_fall) {
    const MapObject *m = g->map;
    int centres[MAXPOW], units[MAXPOW], living = 0, last = -1;
    counts(m, &g->b, centres, units);
    for (int k = 0; k < m->powers; k++)
        if (centres[k] || units[k]) {
            living++;
            last = k;
        }
    if (after_fall) {
        int best = 0, who = -1, ties = 0;
        for (int k = 0; k < m->powers; k++) {
            if (centres[k] > best) {
                best = centres[k];
                who = k;
                ties = 1;
            } else if (centres[k] == best) {
                ties++;
            }
        }
        if (best >= m->victory && ties == 1) {
            g->ended = 1;
            g->winner = who;
            return 1;
        }
    }
    if (living == 1) {
        g->ended = 1;
        g->winner = last;
        return 1;
    }
    if (living == 0 || (g->year_limit && g->year > g->year_limit)) {
        g->ended = 1;
        g->winner = -1;
        return 1;
    }
    return 0;
}

static int adjustments_due(const MapObject *m, const Board *b) {
    int centres[MAXPOW], units[MAXPOW];
    counts(m, b, centres, units);
    for (int k = 0; k < m->powers; k++) {
        if (centres[k] < units[k]) return 1;
        if (centres[k] > units[k] && free_homes(m, b, k, NULL)) return 1;
    }
    return 0;
}

static void after_season(GameObject *g) {
    const MapObject *m = g->map;
    Board *b = &g->b;
    if (g->season == S_SPRING) {
        g->season = S_FALL;
        g->kind = P_MOVEMENT;
        return;
    }
    for (int p = 0; p < m->P; p++)
        if (b->power[p] >= 0 && HAS(m->centre_mask, p)) b->owner[p] = b->power[p];
    g->season = S_WINTER;
    g->kind = P_ADJUSTMENT;
    if (check_ending(g, 1)) return;
    if (!adjustments_due(m, b)) {
        g->season = S_SPRING;
        g->year++;
        g->kind = P_MOVEMENT;
        check_ending(g, 0);
    }
}

static mask_t retreat_options(const MapObject *m, const Board *b, int prov) {
    mask_t blocked = b->contested;
    if (b->d_from[prov] >= 0) blocked |= BIT(b->d_from[prov]);
    mask_t occupied = 0;
    for (int k = 0; k < b->n_order; k++) occupied |= BIT(b->order[k]);
    mask_t out = 0; /* locations, as a mask over location indices below 128 */
    (void)out;
    mask_t provinces = (b->d_fleet[prov] ? m->fleet_mask[b->d_loc[prov]] : m->army_mask[prov]);
    return provinces & ~blocked & ~occupied;
}

/* Retreat destinations (locations) of the dislodged unit in `prov`, in adjacency order. */
static int retreat_locations(const MapObject *m, const Board *b, int prov, int *out) {
    mask_t open = retreat_options(m, b, prov);
    int n = 0, loc = b->d_loc[prov];
    if (b->d_fleet[prov]) {
        for (int k = 0; k < m->fleet_n[loc]; k++)
            if (HAS(open, m->loc_province[m->fleet_adj[loc][k]])) out[n++] = m->fleet_adj[loc][k];
    } else {
        for (int k = 0; k < m->army_n[prov]; k++)
            if (HAS(open, m->army_adj[prov][k])) out[n++] = m->army_adj[prov][k];
    }
    return n;
}

static void clear_dislodged(const MapObject *m, Board *b) {
    for (int p = 0; p < m->P; p++) b->d_power[p] = -1;
}

static int any_dislodged(const MapObject *m, const Board *b) {
    for (int p = 0; p < m->P; p++)
        if (b->d_power[p] >= 0) return 1;
    return 0;
}

static int movement_step(GameObject *g, int ne, const long long *codes) {
    const MapObject *m = g->map;
    Board *b = &g->b;
    Solver *s = solver_take();
    if (!s) return -1;
    int epow[MAXE], eslot[MAXE], ewhy[MAXE];
    int locs[MAXP], clash[MAXP];
    order_units(m, b);
    int n = b->n_order;
    s->m = m;
    s->n = n;
    for (int p = 0; p < m->P; p++) s->slot_of[p] = -1;
    for (int i = 0; i < n; i++) {
        int p = b->order[i];
        s->prov[i] = p;
        s->power[i] = b->power[p];
        s->fleet[i] = b->fleet[p];
        locs[i] = b->loc[p];
        s->slot_of[p] = i;
    }
    for (int e = 0; e < ne; e++) {
        int ol = (int)(codes[e] >> 6 & 255);
        int p = ol < m->L ? m->loc_province[ol] : -1;
        epow[e] = p >= 0 ? b->power[p] : -1;
    }
    validate_slots(m, n, s->prov, s->power, s->fleet, locs, ne, codes, epow, s->kind, s->dst,
                   s->dloc, s->tgt, s->via, eslot, ewhy, clash);
    solve(s);
    int winner[MAXP];
    for (int p = 0; p < m->P; p++) winner[p] = -1;
    for (int x = 0; x < s->nmoves; x++)
        if (s->res[s->moves[x]]) winner[s->dst[s->moves[x]]] = s->moves[x];
    mask_t staying = 0;
    Board next;
    memset(next.power, -1, sizeof next.power);
    memcpy(next.owner, b->owner, sizeof next.owner);
    memset(next.d_power, -1, sizeof next.d_power);
    for (int i = 0; i < n; i++) {
        if (s->kind[i] == M_MOVE && s->res[i]) continue;
        int p = s->prov[i], w = winner[p];
        if (w >= 0) {
            next.d_power[p] = (int8_t)s->power[i];
            next.d_fleet[p] = (uint8_t)s->fleet[i];
            next.d_loc[p] = (uint8_t)locs[i];
            next.d_from[p] = (int16_t)(s->convoyed[w] ? -1 : s->prov[w]);
        } else {
            staying |= BIT(p);
            next.power[p] = (int8_t)s->power[i];
            next.fleet[p] = (uint8_t)s->fleet[i];
            next.loc[p] = (uint8_t)locs[i];
        }
    }
    for (int x = 0; x < s->nmoves; x++) {
        int i = s->moves[x];
        if (!s->res[i]) continue;
        next.power[s->dst[i]] = (int8_t)s->power[i];
        next.fleet[s->dst[i]] = (uint8_t)s->fleet[i];
        next.loc[s->dst[i]] = (uint8_t)s->dloc[i];
    }
    mask_t contested = 0;
    for (int p = 0; p < m->P; p++) {
        if (!s->natt[p] || winner[p] >= 0 || HAS(staying, p)) continue;
        for (int x = 0; x < s->natt[p]; x++)
            if (prevent_strength(s, s->att[p][x]) > 0) {
                contested |= BIT(p);
                break;
            }
    }
    next.contested = contested;
    solver_give(s);
    *b = next;
    order_units(m, b);
    if (any_dislodged(m, b)) {
        g->kind = P_RETREAT;
        int room = 0, where[MAXADJ];
        for (int p = 0; p < m->P && !room; p++)
            if (b->d_power[p] >= 0 && retreat_locations(m, b, p, where)) room = 1;
        if (room) return 0;
        clear_dislodged(m, b); /* nobody can retreat: all are disbanded */
    }
    b->contested = 0;
    after_season(g);
    return 0;
}

static void retreat_step(GameObject *g, int ne, const long long *codes) {
    const MapObject *m = g->map;
    Board *b = &g->b;
    int chosen[MAXP], clash[MAXP];
    long long taken[MAXP];
    for (int p = 0; p < m->P; p++) {
        chosen[p] = -2; /* -2: none, -1: disband, else the destination location */
        clash[p] = 0;
        taken[p] = -1;
    }
    for (int e = 0; e < ne; e++) {
        long long code = codes[e];
        int k = (int)(code & 15), ol = (int)(code >> 6 & 255), a = (int)(code >> 14 & 255);
        if ((k != O_RETREAT && k != O_DISBAND) || ol >= m->L) continue;
        int prov = m->loc_province[ol];
        if (b->d_power[prov] < 0) continue;
        int dst = -1;
        if (k == O_RETREAT) {
            int why;
            if (b->d_fleet[prov]) {
                dst = fleet_destination(m, b->d_loc[prov], a, &why);
                if (dst < 0) continue;
            } else {
                if (a >= m->L) continue;
                dst = m->loc_province[a];
                if (!HAS(m->army_mask[prov], dst)) continue;
            }
            if (!HAS(retreat_options(m, b, prov), m->loc_province[dst])) continue;
        }
        if (chosen[prov] == -2) {
            chosen[prov] = dst;
            taken[prov] = dst;
        } else if (taken[prov] != dst) {
            clash[prov] = 1;
        }
    }
    int arrivals[MAXP];
    memset(arrivals, 0, sizeof arrivals);
    for (int p = 0; p < m->P; p++) {
        if (clash[p]) chosen[p] = -2;
        if (chosen[p] >= 0) arrivals[m->loc_province[chosen[p]]]++;
    }
    for (int p = 0; p < m->P; p++) {
        if (b->d_power[p] < 0 || chosen[p] < 0) continue;
        int d = m->loc_province[chosen[p]];
        if (arrivals[d] > 1) continue;
        b->power[d] = b->d_power[p];
        b->fleet[d] = b->d_fleet[p];
        b->loc[d] = (uint8_t)chosen[p];
    }
    clear_dislodged(m, b);
    b->contested = 0;
    order_units(m, b);
    after_season(g);
}

/* Distances (in steps) from `sources` to every province: every border, or fleet moves. */
static void distances(const MapObject *m, mask_t sources, int fleet, int *dist) {
    for (int p = 0; p < m->P; p++) dist[p] = -1;
    mask_t frontier = sources, seen = 0;
    int step = 0;
    while (frontier) {
        for (mask_t f = frontier; f; f &= f - 1) dist[low_bit(f)] = step;
        seen |= frontier;
        mask_t nxt = 0;
        for (mask_t f = frontier; f; f &= f - 1) {
            int p = low_bit(f);
            nxt |= fleet ? m->fleet_any[p] : m->any_adj[p];
        }
        frontier = nxt & ~seen;
        step++;
    }
}

static int far_of(int d) { return d < 0 ? 10000 : d; }

/* Civil disorder: the provinces of `count` units of `power` to disband, best first. */
static int disorder(const MapObject *m, const Board *before, const uint8_t *gone, int power,
                    int count, int rule, int *out) {
    int mine[MAXP], n = 0;
    for (int p = 0; p < m->P; p++)
        if (before->power[p] == power && !gone[p]) mine[n++] = p;
    if (count <= 0 || !n) return 0;
    int key1[MAXP], key2[MAXP], key3[MAXP], key0[MAXP];
    int dist[MAXP], sea[MAXP];
    if (rule == CD_2023) {
        mask_t owned = 0;
        for (int p = 0; p < m->P; p++)
            if (before->owner[p] == power) owned |= BIT(p);
        if (owned)
            distances(m, owned, 0, dist);
        else
            for (int p = 0; p < m->P; p++) dist[p] = 0;
        for (int x = 0; x < n; x++) {
            int p = mine[x];
            key0[p] = HAS(m->centre_mask, p);
            key1[p] = -far_of(dist[p]);
        }
    } else {
        mask_t homes = 0;
        for (int k = 0; k < m->nhomes[power]; k++) homes |= BIT(m->homes[power][k]);
        if (!homes)
            for (int p = 0; p < m->P; p++)
                if (before->owner[p] == power) homes |= BIT(p);
        if (homes) {
            distances(m, homes, 0, dist);
            distances(m, homes, 1, sea);
        } else {
            for (int p = 0; p < m->P; p++) dist[p] = sea[p] = 0;
        }
        for (int x = 0; x < n; x++) {
            int p = mine[x];
            int d = before->fleet[p] && sea[p] >= 0 ? sea[p] : dist[p];
            key0[p] = 0;
            key1[p] = -far_of(d);
        }
    }
    for (int x = 0; x < n; x++) {
        int p = mine[x];
        key2[p] = before->fleet[p] ? 0 : 1;
        key3[p] = m->name_rank[p];
    }
    /* insertion sort by (key0, key1, key2, key3); n is small */
    for (int x = 1; x < n; x++) {
        int p = mine[x], y = x - 1;
        while (y >= 0) {
            int q = mine[y];
            int later = key0[q] != key0[p]   ? key0[q] > key0[p]
                        : key1[q] != key1[p] ? key1[q] > key1[p]
                        : key2[q] != key2[p] ? key2[q] > key2[p]
                                             : key3[q] > key3[p];
            if (!later) break;
            mine[y + 1] = q;
            y--;
        }
        mine[y + 1] = p;
    }
    if (count > n) count = n;
    for (int x = 0; x < count; x++) out[x] = mine[x];
    return count;
}

static void adjustment_step(GameObject *g, int ne, const long long *codes) {
    const MapObject *m = g->map;
    Board *b = &g->b;
    Board before = *b;
    int owed[MAXPOW];
    adjustment_counts(m, b, owed);
    uint8_t removed[MAXP];
    memset(removed, 0, sizeof removed);
    for (int e = 0; e < ne; e++) {
        long long code = codes[e];
        int k = (int)(code & 15), ol = (int)(code >> 6 & 255), a = (int)(code >> 14 & 255);
        int no_letter = (int)(code >> 31 & 1), fleet = (int)(code >> 4 & 1);
        if (k == O_WAIVE) {
            if (a < m->powers && owed[a] > 0) owed[a]--;
        } else if (k == O_BUILD) {
            if (ol >= m->L) continue;
            int prov = m->loc_province[ol], pk = m->kind[prov], named = m->loc_is_coast[ol];
            int as_fleet;
            if (no_letter) {
                if (pk == K_LAND) as_fleet = 0;
                else if (named) as_fleet = 1;
                else continue;
            } else {
                as_fleet = fleet;
            }
            int where;
            if (!as_fleet) {
                if (pk != K_LAND && pk != K_COAST) continue;
                where = prov;
            } else {
                if (pk != K_COAST || (m->ncoasts[prov] && !named)) continue;
                where = ol;
            }
            int p = m->home[prov];
            if (p < 0 || b->owner[prov] != p || b->power[prov] >= 0 || owed[p] <= 0) continue;
            owed[p]--;
            b->power[prov] = (int8_t)p;
            b->fleet[prov] = (uint8_t)as_fleet;
            b->loc[prov] = (uint8_t)where;
        } else if (k == O_DISBAND) {
            if (ol >= m->L) continue;
            int prov = m->loc_province[ol];
            int p = b->power[prov];
            if (p < 0 || removed[prov] || before.power[prov] < 0 || owed[p] >= 0) continue;
            owed[p]++;
            b->power[prov] = -1;
            removed[prov] = 1;
        }
    }
    for (int p = 0; p < m->powers; p++) {
        if (owed[p] >= 0) continue;
        int out[MAXP];
        int nout = disorder(m, &before, removed, p, -owed[p], g->rule, out);
        for (int x = 0; x < nout; x++) {
            b->power[out[x]] = -1;
            removed[out[x]] = 1;
        }
    }
    clear_dislodged(m, b);
    b->contested = 0;
    order_units(m, b);
    g->season = S_SPRING;
    g->year++;
    g->kind = P_MOVEMENT;
    check_ending(g, 0);
}

/* Read one power's or everyone's orders: a flat sequence of codes. */
static Py_ssize_t read_codes(PyObject *seq, long long *out, Py_ssize_t cap) {
    PyObject *fast = PySequence_Fast(seq, "orders must be a sequence of order codes");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > cap) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "too many orders (%zd)", n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        out[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (out[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return n;
}

/* A Game made by __new__ alone has no map yet. */
static int game_ready(GameObject *g) {
    if (g->map) return 1;
    PyErr_SetString(PyExc_ValueError, "the game was not initialised");
    return 0;
}

static int game_step_codes(GameObject *g, PyObject *orders) {
    long long codes[MAXE];
    if (!game_ready(g)) return -1;
    if (g->ended) {
        PyErr_SetString(PyExc_ValueError, "the game is over");
        return -1;
    }
    Py_ssize_t n = read_codes(orders, codes, MAXE);
    if (n < 0) return -1;
    if (g->kind == P_MOVEMENT) {
        if (movement_step(g, (int)n, codes)) {
            PyErr_NoMemory();
            return -1;
        }
    } else if (g->kind == P_RETREAT)
        retreat_step(g, (int)n, codes);
    else
        adjustment_step(g, (int)n, codes);
    return 0;
}

static PyObject *game_step(GameObject *g, PyObject *orders) {
    if (game_step_codes(g, orders)) return NULL;
    return PyBool_FromLong(g->ended);
}

static GameObject *game_clone(GameObject *g, PyObject *unused) {
    if (!game_ready(g)) return NULL;
    GameObject *c = PyObject_New(GameObject, &GameType);
    if (!c) return NULL;
    Py_INCREF(g->map);
    c->map = g->map;
    c->b = g->b;
    c->season = g->season;
    c->year = g->year;
    c->kind = g->kind;
    c->year_limit = g->year_limit;
    c->rule = g->rule;
    c->ended = g->ended;
    c->winner = g->winner;
    return c;
}

static PyObject *codes_list(const long *v, int n) {
    PyObject *l = PyList_New(n);
    if (!l) return NULL;
    for (int j = 0; j < n; j++) PyList_SET_ITEM(l, j, PyLong_FromLong(v[j]));
    return l;
}

/* legal(power=-1) -> list of lists of codes: one list per unit (movement, retreats; in
 * province order) or a single list (adjustments: builds and WAIVE, or disbands). */
static PyObject *game_legal(GameObject *g, PyObject *args) {
    int who = -1;
    if (!game_ready(g) || !PyArg_ParseTuple(args, "|i", &who)) return NULL;
    const MapObject *m = g->map;
    Board *b = &g->b;
    if (g->ended) return PyList_New(0);
    if (g->kind == P_MOVEMENT) {
        Lists *lists = PyMem_Malloc(sizeof(Lists));
        if (!lists) return PyErr_NoMemory();
        order_units(m, b);
        if (movement_lists(m, b, who, lists)) {
            lists_free(lists, b);
            PyMem_Free(lists);
            return PyErr_NoMemory();
        }
        PyObject *out = PyList_New(0);
        for (int k = 0; out && k < b->n_order; k++) {
            int p = b->order[k];
            if (who >= 0 && b->power[p] != who) continue;
            PyObject *l = codes_list(lists->per[p].v, lists->per[p].n);
            if (!l || PyList_Append(out, l)) Py_CLEAR(out);
            Py_XDECREF(l);
        }
        lists_free(lists, b);
        PyMem_Free(lists);
        return out;
    }
    if (g->kind == P_RETREAT) {
        PyObject *out = PyList_New(0);
        for (int p = 0; out && p < m->P; p++) {
            if (b->d_power[p] < 0 || (who >= 0 && b->d_power[p] != who)) continue;
            int where[MAXADJ];
            long v[MAXADJ + 1];
            int n = retreat_locations(m, b, p, where);
            for (int x = 0; x < n; x++) v[x] = ENC(O_RETREAT, b->d_fleet[p], 0, b->d_loc[p], where[x], 0, 0);
            v[n] = ENC(O_DISBAND, b->d_fleet[p], 0, b->d_loc[p], 0, 0, 0);
            PyObject *l = codes_list(v, n + 1);
            if (!l || PyList_Append(out, l)) Py_CLEAR(out);
            Py_XDECREF(l);
        }
        return out;
    }
    int owed[MAXPOW];
    adjustment_counts(m, b, owed);
    PyObject *out = PyList_New(0);
    for (int k = 0; out && k < m->powers; k++) {
        if (who >= 0 && k != who) continue;
        long v[MAXP * 4];
        int n = 0;
        if (owed[k] > 0) {
            int homes[MAXP];
            int nh = free_homes(m, b, k, homes);
            for (int x = 0; x < nh; x++) {
                int c = homes[x];
                v[n++] = ENC(O_BUILD, 0, 0, c, 0, 0, 0);
                if (m->kind[c] == K_COAST) {
                    if (m->ncoasts[c])
                        for (int y = 0; y < m->ncoasts[c]; y++)
                            v[n++] = ENC(O_BUILD, 1, 0, m->coasts[c][y], 0, 0, 0);
                    else
                        v[n++] = ENC(O_BUILD, 1, 0, c, 0, 0, 0);
                }
            }
            v[n++] = ENC(O_WAIVE, 0, 0, 0, k, 0, 0);
        } else if (owed[k] < 0) {
            for (int p = 0; p < m->P; p++)
                if (b->power[p] == k) v[n++] = ENC(O_DISBAND, b->fleet[p], 0, b->loc[p], 0, 0, 0);
        }
        if (!n) continue;
        PyObject *l = codes_list(v, n);
        if (!l || PyList_Append(out, l)) Py_CLEAR(out);
        Py_XDECREF(l);
    }
    return out;
}

/* owed() -> builds (>0) or disbands (<0) owed by each power (adjustments) */
static PyObject *game_owed(GameObject *g, PyObject *unused) {
    int owed[MAXPOW];
    if (!game_ready(g)) return NULL;
    adjustment_counts(g->map, &g->b, owed);
    return ints_to_list(owed, g->map->powers);
}

/* state() -> (season, year, kind, units, owner, dislodged, contested, ended, winner);
 * units: (prov, power, fleet, loc) by province; dislodged: (prov, power, fleet, loc, from) */
static PyObject *game_state(GameObject *g, PyObject *unused) {
    if (!game_ready(g)) return NULL;
    const MapObject *m = g->map;
    const Board *b = &g->b;
    PyObject *units = PyList_New(0), *dis = PyList_New(0), *owner = PyList_New(m->P);
    if (!units || !dis || !owner) goto fail;
    for (int p = 0; p < m->P; p++) {
        PyList_SET_ITEM(owner, p, PyLong_FromLong(b->owner[p]));
        if (b->power[p] >= 0) {
            PyObject *t = Py_BuildValue("(iiNi)", p, b->power[p], PyBool_FromLong(b->fleet[p]), b->loc[p]);
            if (!t || PyList_Append(units, t)) {
                Py_XDECREF(t);
                goto fail;
            }
            Py_DECREF(t);
        }
        if (b->d_power[p] >= 0) {
            PyObject *t = Py_BuildValue("(iiNii)", p, b->d_power[p], PyBool_FromLong(b->d_fleet[p]),
                                        b->d_loc[p], b->d_from[p]);
            if (!t || PyList_Append(dis, t)) {
                Py_XDECREF(t);
                goto fail;
            }
            Py_DECREF(t);
        }
    }
    return Py_BuildValue("(iiiNNNNii)", g->season, g->year, g->kind, units, owner, dis,
                         mask_to_long(b->contested), g->ended, g->winner);
fail:
    Py_XDECREF(units);
    Py_XDECREF(dis);
    Py_XDECREF(owner);
    return NULL;
}

/* Game(map, season, year, kind, units, owner, dislodged, contested, year_limit, rule) */
static int game_init(GameObject *g, PyObject *args, PyObject *kwds) {
    PyObject *map, *units, *owner, *dis, *contested;
    int season, year, kind, limit, rule;
    if (!PyArg_ParseTuple(args, "O!iiiOOOOii", &MapType, &map, &season, &year, &kind, &units,
                          &owner, &dis, &contested, &limit, &rule))
        return -1;
    Py_INCREF(map);
    Py_XSETREF(g->map, (MapObject *)map);
    const MapObject *m = g->map;
    Board *b = &g->b;
    memset(b->power, -1, sizeof b->power);
    memset(b->d_power, -1, sizeof b->d_power);
    int own[MAXP];
    if (read_ints(owner, own, MAXP, "owner") != m->P) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "owner: one entry per province");
        return -1;
    }
    for (int p = 0; p < m->P; p++) {
        if (own[p] < -1 || own[p] >= m->powers) {
            PyErr_Format(PyExc_ValueError, "owner of province %d: no power %d", p, own[p]);
            return -1;
        }
        b->owner[p] = (int8_t)own[p];
    }
    PyObject *fast = PySequence_Fast(units, "units");
    if (!fast) return -1;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast); i++) {
        int p, pw, f, l;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "iipi", &p, &pw, &f, &l) ||
            p < 0 || p >= m->P || l < 0 || l >= m->L || pw < 0 || pw >= m->powers) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "unit outside the map");
            return -1;
        }
        b->power[p] = (int8_t)pw;
        b->fleet[p] = (uint8_t)f;
        b->loc[p] = (uint8_t)l;
    }
    Py_DECREF(fast);
    fast = PySequence_Fast(dis, "dislodged");
    if (!fast) return -1;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast); i++) {
        int p, pw, f, l, from;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "iipii", &p, &pw, &f, &l, &from) ||
            p < 0 || p >= m->P || l < 0 || l >= m->L || pw < 0 || pw >= m->powers) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "dislodged unit outside the map");
            return -1;
        }
        if (from < -1 || from >= m->P) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "dislodged unit in %d: attacker from %d", p, from);
            return -1;
        }
        b->d_power[p] = (int8_t)pw;
        b->d_fleet[p] = (uint8_t)f;
        b->d_loc[p] = (uint8_t)l;
        b->d_from[p] = (int16_t)from;
    }
    Py_DECREF(fast);
    if (long_to_mask(contested, &b->contested)) return -1;
    order_units(m, b);
    g->season = season;
    g->year = year;
    g->kind = kind;
    g->year_limit = limit;
    g->rule = rule;
    g->ended = 0;
    g->winner = -1;
    return 0;
}

static void game_dealloc(GameObject *g) {
    Py_XDECREF(g->map);
    Py_TYPE(g)->tp_free((PyObject *)g);
}

static PyObject *game_get_ended(GameObject *g, void *unused) { return PyBool_FromLong(g->ended); }
static PyObject *game_get_winner(GameObject *g, void *unused) { return PyLong_FromLong(g->winner); }
static PyObject *game_get_phase(GameObject *g, void *unused) {
    return Py_BuildValue("(iii)", g->season, g->year, g->kind);
}

static PyGetSetDef game_getset[] = {
    {"ended", (getter)game_get_ended, NULL, "True once the game is over.", NULL},
    {"winner", (getter)game_get_winner, NULL, "The winning power, or -1.", NULL},
    {"phase", (getter)game_get_phase, NULL, "(season, year, kind) as ints.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef game_methods[] = {
    {"step", (PyCFunction)game_step, METH_O,
     "Resolve the phase with these order codes; True when the game has ended."},
    {"clone", (PyCFunction)game_clone, METH_NOARGS, "An independent copy (a memory copy)."},
    {"legal", (PyCFunction)game_legal, METH_VARARGS,
     "Legal order codes: per unit of one power (or all), or the adjustment list."},
    {"owed", (PyCFunction)game_owed, METH_NOARGS, "Builds (>0) or disbands (<0) per power."},
    {"state", (PyCFunction)game_state, METH_NOARGS, "The position as plain tuples."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject GameType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "parley.games.diplomacy._core.Game",
    .tp_basicsize = sizeof(GameObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A game position on the native tables, advanced phase by phase.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)game_init,
    .tp_dealloc = (destructor)game_dealloc,
    .tp_methods = game_methods,
    .tp_getset = game_getset,
};

/* step_many(games, orders) -> list of ended flags: one call for many positions. */
static PyObject *step_many(PyObject *mod, PyObject *args) {
    PyObject *games, *orders;
    if (!PyArg_ParseTuple(args, "OO", &games, &orders)) return NULL;
    PyObject *g = PySequence_Fast(games, "games");
    if (!g) return NULL;
    PyObject *o = PySequence_Fast(orders, "orders");
    if (!o) {
        Py_DECREF(g);
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(g);
    PyObject *out = NULL;
    if (PySequence_Fast_GET_SIZE(o) != n) {
        PyErr_SetString(PyExc_ValueError, "one order list per game");
        goto done;
    }
    out = PyList_New(n);
    if (!out) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *game = PySequence_Fast_GET_ITEM(g, i);
        if (!PyObject_TypeCheck(game, &GameType)) {
            PyErr_SetString(PyExc_TypeError, "step_many takes Game objects");
            Py_CLEAR(out);
            goto done;
        }
        if (game_step_codes((GameObject *)game, PySequence_Fast_GET_ITEM(o, i))) {
            Py_CLEAR(out);
            goto done;
        }
        PyList_SET_ITEM(out, i, PyBool_FromLong(((GameObject *)game)->ended));
    }
done:
    Py_DECREF(g);
    Py_DECREF(o);
    return out;
}

/* set_rules(victory_centres, name_rank) on a map */
static PyObject *map_set_rules(MapObject *self, PyObject *args) {
    PyObject *rank;
    int victory;
    if (!PyArg_ParseTuple(args, "iO", &victory, &rank)) return NULL;
    if (read_ints(rank, self->name_rank, MAXP, "name_rank") != self->P) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one rank per province");
        return NULL;
    }
    self->victory = victory;
    Py_RETURN_NONE;
}


/* results(entries, clashes, reasons, whos, beaten, names, consts) -> (results, ordered)
 * Builds the OrderResult of every legal entry (power, order, slot, why) from the core's
 * reasons; entries that are illegal or clash are left None for Python to fill, and
 * ordered[slot] says which units had an order taken. consts: (OrderResult, SUCCEEDS,
 * FAILS, REASONS, "?"). */
static PyObject *map_results(MapObject *self, PyObject *args) {
    PyObject *entries, *clashes, *reasons, *whos, *beaten, *names, *consts;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!O!", &PyList_Type, &entries, &PySet_Type, &clashes,
                          &PyList_Type, &reasons, &PyList_Type, &whos, &PyList_Type, &beaten,
                          &PyList_Type, &names, &PyTuple_Type, &consts))
        return NULL;
    PyTypeObject *result_type;
    PyObject *succeeds, *fails, *reason_names, *unknown;
    if (!PyArg_ParseTuple(consts, "O!OOO!U", &PyType_Type, &result_type, &succeeds, &fails,
                          &PyTuple_Type, &reason_names, &unknown))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(names), ne = PyList_GET_SIZE(entries);
    if (PyList_GET_SIZE(reasons) != n || PyList_GET_SIZE(whos) != n ||
        PyList_GET_SIZE(beaten) != n) {
        PyErr_SetString(PyExc_ValueError, "slot tables differ");
        return NULL;
    }
    PyObject *out = PyList_New(ne);
    PyObject *ordered = PyList_New(n);
    if (!out || !ordered) goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_INCREF(Py_False);
        PyList_SET_ITEM(ordered, i, Py_False);
    }
    Py_ssize_t nr = PyTuple_GET_SIZE(reason_names);
    for (Py_ssize_t e = 0; e < ne; e++) {
        PyObject *entry = PyList_GET_ITEM(entries, e);
        if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 4) {
            PyErr_SetString(PyExc_TypeError, "entries are (power, order, slot, why)");
            goto fail;
        }
        PyObject *slot_o = PyTuple_GET_ITEM(entry, 2), *why = PyTuple_GET_ITEM(entry, 3);
        long slot = PyLong_AsLong(slot_o);
        if (slot == -1 && PyErr_Occurred()) goto fail;
        int clash = 0;
        if (why == Py_None && slot >= 0 && PySet_GET_SIZE(clashes)) {
            clash = PySet_Contains(clashes, slot_o);
            if (clash < 0) goto fail;
        }
        if (why != Py_None || clash || slot < 0 || slot >= n) {
            Py_INCREF(Py_None);
            PyList_SET_ITEM(out, e, Py_None);
            continue;
        }
        Py_INCREF(Py_True);
        Py_SETREF(PyList_GET_ITEM(ordered, slot), Py_True);
        long r = PyLong_AsLong(PyList_GET_ITEM(reasons, slot));
        if (r < 0 || r >= nr) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad reason");
            goto fail;
        }
        PyObject *items[7];
        items[0] = PyTuple_GET_ITEM(entry, 0);
        items[1] = PyTuple_GET_ITEM(entry, 1);
        items[3] = PyTuple_GET_ITEM(reason_names, r);
        items[6] = Py_False;
        PyObject *who;
        if (r <= R_CONVOYED) {
            items[2] = succeeds;
            who = PyTuple_New(0);
            items[5] = Py_None;
        } else {
            items[2] = fails;
            PyObject *slots = PyList_GET_ITEM(whos, slot);
            Py_ssize_t nw = PyTuple_GET_SIZE(slots);
            who = PyTuple_New(nw);
            if (!who) goto fail;
            for (Py_ssize_t k = 0; k < nw; k++) {
                long x = PyLong_AsLong(PyTuple_GET_ITEM(slots, k));
                PyObject *name = (x >= 0 && x < n) ? PyList_GET_ITEM(names, x) : unknown;
                Py_INCREF(name);
                PyTuple_SET_ITEM(who, k, name);
            }
            long b = PyLong_AsLong(PyList_GET_ITEM(beaten, slot));
            items[5] = (b >= 0 && b < n) ? PyList_GET_ITEM(names, b) : Py_None;
        }
        if (!who) goto fail;
        items[4] = who;
        PyObject *t = result_type->tp_alloc(result_type, 7);
        if (!t) {
            Py_DECREF(who);
            goto fail;
        }
        for (int k = 0; k < 7; k++) {
            if (k != 4) Py_INCREF(items[k]);
            PyTuple_SET_ITEM(t, k, items[k]);
        }
        PyList_SET_ITEM(out, e, t);
    }
    return Py_BuildValue("(NN)", out, ordered);
fail:
    Py_XDECREF(out);
    Py_XDECREF(ordered);
    return NULL;
}


/* retreat_check(units, dislodged, contested, entry_powers, orders, table) -> list of
 * (prov, destination location or -1 for a disband) or an index into native.ILLEGAL, one per
 * order: retreats.py's legality check. units: provinces holding a unit; dislodged:
 * (prov, power, fleet, loc, attacker_from). */
static PyObject *map_retreat_check(MapObject *self, PyObject *args) {
    PyObject *units_o, *dis_o, *contested_o, *epow_o, *orders, *table;
    if (!PyArg_ParseTuple(args, "OOOOO!O", &units_o, &dis_o, &contested_o, &epow_o,
                          &PyList_Type, &orders, &table))
        return NULL;
    const MapObject *m = self;
    Board b;
    memset(b.power, -1, sizeof b.power);
    memset(b.d_power, -1, sizeof b.d_power);
    int provs[MAXP];
    Py_ssize_t nu = read_ints(units_o, provs, MAXP, "unit provinces");
    if (nu < 0) return NULL;
    b.n_order = 0;
    for (int i = 0; i < nu; i++) {
        if (provs[i] < 0 || provs[i] >= m->P) return PyErr_Format(PyExc_ValueError, "no province %d", provs[i]);
        b.power[provs[i]] = 0;
        b.order[b.n_order++] = (uint8_t)provs[i];
    }
    PyObject *fast = PySequence_Fast(dis_o, "dislodged");
    if (!fast) return NULL;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast); i++) {
        int p, pw, f, l, from;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "iipii", &p, &pw, &f, &l, &from) ||
            p < 0 || p >= m->P || l < 0 || l >= m->L || pw < 0 || pw >= m->powers || from < -1 ||
            from >= m->P) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "dislodged unit outside the map");
            return NULL;
        }
        b.d_power[p] = (int8_t)pw;
        b.d_fleet[p] = (uint8_t)f;
        b.d_loc[p] = (uint8_t)l;
        b.d_from[p] = (int16_t)from;
    }
    Py_DECREF(fast);
    if (long_to_mask(contested_o, &b.contested)) return NULL;
    int epow[MAXE];
    Py_ssize_t ne = read_ints(epow_o, epow, MAXE, "entry powers");
    if (ne < 0) return NULL;
    if (PyList_GET_SIZE(orders) != ne) {
        PyErr_SetString(PyExc_ValueError, "entry tables differ");
        return NULL;
    }
    PyObject *out = PyList_New(ne);
    if (!out) return NULL;
    for (Py_ssize_t e = 0; e < ne; e++) {
        long long code = order_code(self, table, PyList_GET_ITEM(orders, e));
        if (code == -1 && PyErr_Occurred()) {
            Py_DECREF(out);
            return NULL;
        }
        int k = (int)(code & 15), ol = (int)(code >> 6 & 255), a = (int)(code >> 14 & 255);
        int why = -1, prov = -1, dst = -1;
        if (k != O_RETREAT && k != O_DISBAND) {
            why = I_WRONG_PHASE;
        } else if (ol >= m->L) {
            why = I_NO_UNIT;
        } else {
            prov = m->loc_province[ol];
            if (b.d_power[prov] < 0) {
                why = b.power[prov] >= 0 ? I_NOT_DISLODGED : I_NO_UNIT;
            } else if (b.d_power[prov] != epow[e]) {
                why = I_FOREIGN_UNIT;
            } else if (k == O_RETREAT) {
                if (b.d_fleet[prov]) {
                    dst = fleet_destination(m, b.d_loc[prov], a, &why);
                } else if (a >= m->L || !HAS(m->army_mask[prov], m->loc_province[a])) {
                    why = I_UNREACHABLE;
                } else {
                    dst = m->loc_province[a];
                }
                if (why < 0 && !HAS(retreat_options(m, &b, prov), m->loc_province[dst]))
                    why = I_RETREAT_BLOCKED;
            }
        }
        PyObject *item = why >= 0 ? PyLong_FromLong(why) : Py_BuildValue("(ii)", prov, dst);
        if (!item) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, e, item);
    }
    return out;
}

/* --- the module --------------------------------------------------------------------- */

static PyMethodDef module_methods[] = {
    {"configure", configure, METH_VARARGS, "Set the Piece and Dislodged record types."},
    {"step_many", step_many, METH_VARARGS, "Step many games, each with its order codes."},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef map_methods[] = {
    {"movement_orders", (PyCFunction)map_movement_orders, METH_VARARGS,
     "Legal movement orders (codes) of each unit, in the order of the provinces given."},
    {"movement_values", (PyCFunction)map_movement_values, METH_VARARGS,
     "Legal movement orders as order values, made through the table given."},
    {"routes", (PyCFunction)map_routes, METH_VARARGS,
     "Convoy destinations from a province through the fleets given, with their seas."},
    {"validate_values", (PyCFunction)map_validate_values, METH_VARARGS,
     "Check movement orders (values) against the units: slot tables and entries."},
    {"set_codes", (PyCFunction)map_set_codes, METH_O, "Location codes, for `parse`."},
    {"retreat_check", (PyCFunction)map_retreat_check, METH_VARARGS,
     "The legality of retreat-phase orders (values): (province, destination) or a reason."},
    {"results", (PyCFunction)map_results, METH_VARARGS,
     "OrderResults of the legal entries of a movement phase, from `resolve`'s reasons."},
    {"parse", (PyCFunction)map_parse, METH_VARARGS,
     "The code of an order in canonical notation, or -1 for any other text."},
    {"set_rules", (PyCFunction)map_set_rules, METH_VARARGS,
     "Victory centres, and the rank of each province name (civil-disorder ties)."},
    {"resolve", (PyCFunction)map_resolve, METH_VARARGS,
     "Resolve validated movement orders: decisions, reasons and the next position."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject MapType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "parley.games.diplomacy._core.Map",
    .tp_basicsize = sizeof(MapObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A map compiled to the native core's tables.",
    .tp_dealloc = (destructor)map_dealloc,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)map_init,
    .tp_methods = map_methods,
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core", "The native core of the Diplomacy engine.", -1, module_methods,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&MapType) < 0 || PyType_Ready(&GameType) < 0) return NULL;
    PyObject *mod = PyModule_Create(&core_module);
    if (!mod) return NULL;
    Py_INCREF(&MapType);
    if (PyModule_AddObject(mod, "Map", (PyObject *)&MapType) < 0) {
        Py_DECREF(&MapType);
        Py_DECREF(mod);
        return NULL;
    }
#ifndef PARLEY_CORE_SOURCE
#define PARLEY_CORE_SOURCE ""
#endif
    if (PyModule_AddStringConstant(mod, "SOURCE", PARLEY_CORE_SOURCE) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    Py_INCREF(&GameType);
    if (PyModule_AddObject(mod, "Game", (PyObject *)&GameType) < 0) {
        Py_DECREF(&GameType);
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
