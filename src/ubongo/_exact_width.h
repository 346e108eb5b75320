/* The searches of ubongo._exact for masks of W words of 64 bits.
 *
 * _exact.c includes this file once per width (W = 1, 2 and 4) with NAME(x) giving each
 * function and type its own name for that width.  A mask is a struct of W words passed by
 * value: with W a constant, the compiler keeps a one-word mask in one register and unrolls
 * the loops over the words of wider ones, so the areas of Classic and Extreme (at most 64
 * bits on their grids) do not pay for the 3D and Trigo ones (up to 167 bits in the standard
 * decks).
 *
 * Each search is the one of the same name in ubongo/solver.py, step for step: the same
 * placements tried in the same order, so that both cores count the same nodes and list the
 * solutions in the same order.  Read the Python first; the comments here say only what
 * differs in how it is done.
 */

typedef struct {
    uint64_t w[W];
} NAME(Mask);

#define MASK NAME(Mask)

static inline MASK NAME(load)(const uint64_t *from)
{
    MASK m;
    for (int i = 0; i < W; i++)
        m.w[i] = from[i];
    return m;
}

static inline void NAME(store)(uint64_t *to, MASK m)
{
    for (int i = 0; i < W; i++)
        to[i] = m.w[i];
}

static inline int NAME(overlaps)(MASK a, MASK b)
{
    uint64_t any = 0;
    for (int i = 0; i < W; i++)
        any |= a.w[i] & b.w[i];
    return any != 0;
}

static inline int NAME(same)(MASK a, MASK b)
{
    uint64_t diff = 0;
    for (int i = 0; i < W; i++)
        diff |= a.w[i] ^ b.w[i];
    return diff == 0;
}

static inline int NAME(is_empty)(MASK a)
{
    uint64_t any = 0;
    for (int i = 0; i < W; i++)
        any |= a.w[i];
    return any == 0;
}

static inline MASK NAME(or)(MASK a, MASK b)
{
    for (int i = 0; i < W; i++)
        a.w[i] |= b.w[i];
    return a;
}

static inline MASK NAME(xor)(MASK a, MASK b)
{
    for (int i = 0; i < W; i++)
        a.w[i] ^= b.w[i];
    return a;
}

/* The number of the lowest set bit of a mask that is not empty. */
static inline int NAME(lowest)(MASK a)
{
    for (int i = 0; i < W - 1; i++)
        if (a.w[i])
            return 64 * i + __builtin_ctzll(a.w[i]);
    return 64 * (W - 1) + __builtin_ctzll(a.w[W - 1]);
}

/* The mask moved by a step's whole words and bits (away from bit 0 when up, else towards
 * it); bits moved past either end are lost, as they are outside the area. */
static inline MASK NAME(shifted)(MASK a, const Step *step)
{
    MASK out;
    int q = step->words, r = step->bits;
    for (int i = 0; i < W; i++) {
        int from = step->up ? i - q : i + q;
        uint64_t v = 0;
        if (from >= 0 && from < W)
            v = step->up ? a.w[from] << r : a.w[from] >> r;
        int carry = step->up ? from - 1 : from + 1;
        if (r && carry >= 0 && carry < W)
            v |= step->up ? a.w[carry] >> (64 - r) : a.w[carry] << (64 - r);
        out.w[i] = v;
    }
    return out;
}

/* The cells next to a set of cells (Grid.next_to): one shift of the cells of each kind per
 * direction to a neighbour. */
static inline MASK NAME(next_to)(const Problem *p, MASK m)
{
    MASK out = {{0}};
    for (int s = 0; s < p->steps; s++) {
        MASK some = m;
        for (int i = 0; i < W; i++)
            some.w[i] &= p->step[s].cells[i];
        out = NAME(or)(out, NAME(shifted)(some, &p->step[s]));
    }
    return out;
}

/* Whether placing ``mask`` walls in an empty cell: a cell of the hole next to the piece
 * with no empty neighbour. */
static inline int NAME(walls_in)(const Problem *p, MASK mask, MASK hole)
{
    MASK a = NAME(next_to)(p, mask), b = NAME(next_to)(p, hole);
    uint64_t any = 0;
    for (int i = 0; i < W; i++)
        any |= a.w[i] & hole.w[i] & ~b.w[i];
    return any != 0;
}

static inline uint64_t NAME(hash)(MASK m, uint32_t left)
{
    uint64_t h = left * 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < W; i++)
        h = mix(h ^ m.w[i]);
    return h;
}

/* Whether ``hole`` is one of piece q's placements (its first cell is the hole's): the
 * Python core's dictionary lookup of the hole's shape, here a scan of those few masks. */
static inline int NAME(fits_exactly)(const Problem *p, int q, MASK hole)
{
    if (NAME(is_empty)(hole))
        return 0;
    int32_t g = p->group_of[(size_t)q * p->bits + NAME(lowest)(hole)];
    if (g < 0)
        return 0;
    for (int32_t i = p->groups[g].start; i < p->groups[g].end; i++)
        if (NAME(same)(NAME(load)(p->masks + (size_t)i * W), hole))
            return 1;
    return 0;
}

/* --- a table of states (cells covered, pieces left) -> a number ---------------------------
 * Open addressing with linear probing, at most half full: the Python core's dict of
 * ``covered | left << above`` (the depth-first count's known ways, the search's dead ends). */

typedef struct {
    MASK covered;
    uint32_t left;
    uint32_t used;
    uint64_t value;
} NAME(Slot);

typedef struct {
    NAME(Slot) *slots;
    size_t mask; /* capacity - 1 (a power of two) */
    size_t count;
} NAME(Memo);

static int NAME(memo_init)(NAME(Memo) *t)
{
    t->mask = 63; /* (small: most searches are Ubongo-sized; it doubles as it fills) */
    t->count = 0;
    t->slots = calloc(t->mask + 1, sizeof(NAME(Slot)));
    return t->slots ? 0 : -1;
}

static NAME(Slot) *NAME(memo_find)(const NAME(Memo) *t, MASK covered, uint32_t left)
{
    size_t i = NAME(hash)(covered, left) & t->mask;
    for (;; i = (i + 1) & t->mask) {
        NAME(Slot) *s = &t->slots[i];
        if (!s->used)
            return NULL;
        if (s->left == left && NAME(same)(s->covered, covered))
            return s;
    }
}

static int NAME(memo_grow)(NAME(Memo) *t)
{
    size_t old = t->mask + 1;
    NAME(Slot) *slots = calloc(2 * old, sizeof(NAME(Slot)));
    if (!slots)
        return -1;
    size_t mask = 2 * old - 1;
    for (size_t j = 0; j < old; j++) {
        NAME(Slot) *s = &t->slots[j];
        if (!s->used)
            continue;
        size_t i = NAME(hash)(s->covered, s->left) & mask;
        while (slots[i].used)
            i = (i + 1) & mask;
        slots[i] = *s;
    }
    free(t->slots);
    t->slots = slots;
    t->mask = mask;
    return 0;
}

/* Remember ``value`` for a state that is not yet known; -1 when out of memory. */
static int NAME(memo_put)(NAME(Memo) *t, MASK covered, uint32_t left, uint64_t value)
{
    if (2 * (t->count + 1) > t->mask + 1 && NAME(memo_grow)(t) < 0)
        return -1;
    size_t i = NAME(hash)(covered, left) & t->mask;
    while (t->slots[i].used)
        i = (i + 1) & t->mask;
    NAME(Slot) *s = &t->slots[i];
    s->covered = covered;
    s->left = left;
    s->used = 1;
    s->value = value;
    t->count++;
    return 0;
}

/* --- the depth-first count, up to a limit (ExactCover._count) ---------------------------- */

typedef struct {
    const Problem *p;
    NAME(Memo) known;
    uint64_t nodes;
    int failed; /* FAILED_MEMORY or FAILED_OVERFLOW */
} NAME(Counting);

static uint64_t NAME(ways)(NAME(Counting) *c, MASK covered, uint32_t left, uint64_t need)
{
    const Problem *p = c->p;
    MASK area = NAME(load)(p->area);
    MASK empty = NAME(xor)(area, covered);
    if (NAME(is_empty)(empty))
        return 0; /* (full with pieces left: only where sizes do not add up, a dead end) */
    int first = NAME(lowest)(empty);
    uint64_t total = 0;
    for (int32_t gi = p->first_group[first]; gi < p->first_group[first + 1]; gi++) {
        const Group *g = &p->groups[gi];
        if (!(left & g->bit))
            continue;
        uint32_t rest = left ^ g->bit;
        const uint64_t *masks = p->masks + (size_t)g->start * W;
        int32_t n = g->end - g->start;
        if (!rest) { /* the only piece: it must be the whole area */
            for (int32_t i = 0; i < n; i++)
                total += NAME(same)(NAME(load)(masks + (size_t)i * W), empty);
            c->nodes += (uint64_t)n;
            continue;
        }
        if (!(rest & (rest - 1))) { /* one piece after this: it must fit the hole exactly */
            int q = __builtin_ctz(rest);
            for (int32_t i = 0; i < n; i++) {
                MASK mask = NAME(load)(masks + (size_t)i * W);
                if (NAME(overlaps)(covered, mask))
                    continue;
                c->nodes++;
                if (NAME(fits_exactly)(p, q, NAME(xor)(empty, mask))) {
                    c->nodes++;
                    total++;
                }
            }
            if (total >= need)
                return total;
            continue;
        }
        int holes_fatal = p->test_holes && !(rest & p->hole_fillers);
        for (int32_t i = 0; i < n; i++) {
            MASK mask = NAME(load)(masks + (size_t)i * W);
            if (NAME(overlaps)(covered, mask))
                continue;
            c->nodes++;
            MASK after = NAME(or)(covered, mask);
            NAME(Slot) *known = NAME(memo_find)(&c->known, after, rest);
            uint64_t ways;
            if (known) {
                ways = known->value;
            } else {
                if (holes_fatal && NAME(walls_in)(p, mask, NAME(xor)(empty, mask))) {
                    ways = 0;
                } else {
                    ways = NAME(ways)(c, after, rest, need - total);
                    uint64_t sum;
                    if (!c->failed && __builtin_add_overflow(total, ways, &sum))
                        c->failed = FAILED_OVERFLOW;
                    if (c->failed)
                        return 0;
                    if (sum >= need)
                        return sum; /* (a count cut short is not remembered) */
                }
                if (NAME(memo_put)(&c->known, after, rest, ways) < 0) {
                    c->failed = FAILED_MEMORY;
                    return 0;
                }
            }
            if (__builtin_add_overflow(total, ways, &total)) {
                c->failed = FAILED_OVERFLOW;
                return 0;
            }
            if (total >= need)
                return total;
        }
    }
    return total;
}

/* The number of solutions (or some number >= need when there are that many) and the
 * nodes, as ExactCover._count; 0 or FAILED_*. */
static int NAME(count_to)(const Problem *p, uint64_t need, uint64_t *found, uint64_t *nodes)
{
    NAME(Counting) c = {p, {0}, 0, 0};
    if (NAME(memo_init)(&c.known) < 0)
        return FAILED_MEMORY;
    MASK none = {{0}};
    *found = NAME(ways)(&c, none, p->all, need);
    *nodes = c.nodes;
    free(c.known.slots);
    return c.failed;
}

/* --- counting forward, one piece at a time (ExactCover._count_all) -----------------------
 * The states after k pieces: each distinct set of covered cells is a group, holding its
 * states (pieces left, ways to get there) as a linked list of entries.  Two hash indexes
 * find a group by its cells and an entry by (group, pieces left); the groups and entries
 * are plain arrays, walked in the order they were made. */

typedef struct {
    MASK *covered;    /* [group] */
    int32_t *head;    /* [group]: its first entry */
    int32_t *gslots;  /* hash index: group number or -1 */
    size_t groups, groups_cap, gmask;
    int32_t *egroup;  /* [entry] */
    uint32_t *eleft;  /* [entry] */
    uint64_t *eways;  /* [entry] */
    int32_t *enext;   /* [entry]: the next entry of its group, or -1 */
    int32_t *eslots;  /* hash index: entry number or -1 */
    size_t entries, entries_cap, emask;
} NAME(States);

static void NAME(states_free)(NAME(States) *s)
{
    free(s->covered);
    free(s->head);
    free(s->gslots);
    free(s->egroup);
    free(s->eleft);
    free(s->eways);
    free(s->enext);
    free(s->eslots);
}

static inline uint64_t NAME(entry_hash)(int32_t group, uint32_t left)
{
    return mix(((uint64_t)(uint32_t)group << 32 | left) * 0x9E3779B97F4A7C15ULL);
}

/* A fresh hash index of ``cap`` slots (a power of two) over the first ``count`` items. */
static int32_t *NAME(index_of)(NAME(States) *s, size_t cap, size_t count, int entries)
{
    int32_t *slots = malloc(cap * sizeof(int32_t));
    if (!slots)
        return NULL;
    memset(slots, 0xff, cap * sizeof(int32_t));
    for (size_t j = 0; j < count; j++) {
        uint64_t h = entries ? NAME(entry_hash)(s->egroup[j], s->eleft[j])
                             : NAME(hash)(s->covered[j], 0);
        size_t i = h & (cap - 1);
        while (slots[i] >= 0)
            i = (i + 1) & (cap - 1);
        slots[i] = (int32_t)j;
    }
    return slots;
}

static int NAME(states_init)(NAME(States) *s)
{
    memset(s, 0, sizeof *s);
    s->groups_cap = s->entries_cap = 32; /* (small, as the memo's) */
    s->gmask = s->emask = 63;
    s->covered = malloc(s->groups_cap * sizeof(MASK));
    s->head = malloc(s->groups_cap * sizeof(int32_t));
    s->egroup = malloc(s->entries_cap * sizeof(int32_t));
    s->eleft = malloc(s->entries_cap * sizeof(uint32_t));
    s->eways = malloc(s->entries_cap * sizeof(uint64_t));
    s->enext = malloc(s->entries_cap * sizeof(int32_t));
    s->gslots = NAME(index_of)(s, s->gmask + 1, 0, 0);
    s->eslots = NAME(index_of)(s, s->emask + 1, 0, 1);
    if (!s->covered || !s->head || !s->egroup || !s->eleft || !s->eways || !s->enext ||
        !s->gslots || !s->eslots)
        return -1;
    return 0;
}

static void NAME(states_clear)(NAME(States) *s)
{
    s->groups = s->entries = 0;
    memset(s->gslots, 0xff, (s->gmask + 1) * sizeof(int32_t));
    memset(s->eslots, 0xff, (s->emask + 1) * sizeof(int32_t));
}

static int NAME(grow)(void **array, size_t size, size_t cap)
{
    void *bigger = realloc(*array, cap * size);
    if (!bigger)
        return -1;
    *array = bigger;
    return 0;
}

/* Make room for one more group and one more entry; -1 when out of memory. */
static int NAME(states_room)(NAME(States) *s)
{
    if (s->groups == s->groups_cap) {
        size_t cap = 2 * s->groups_cap;
        if (NAME(grow)((void **)&s->covered, sizeof(MASK), cap) < 0 ||
            NAME(grow)((void **)&s->head, sizeof(int32_t), cap) < 0)
            return -1;
        s->groups_cap = cap;
    }
    if (2 * (s->groups + 1) > s->gmask + 1) {
        int32_t *slots = NAME(index_of)(s, 2 * (s->gmask + 1), s->groups, 0);
        if (!slots)
            return -1;
        free(s->gslots);
        s->gslots = slots;
        s->gmask = 2 * s->gmask + 1;
    }
    if (s->entries == s->entries_cap) {
        size_t cap = 2 * s->entries_cap;
        if (NAME(grow)((void **)&s->egroup, sizeof(int32_t), cap) < 0 ||
            NAME(grow)((void **)&s->eleft, sizeof(uint32_t), cap) < 0 ||
            NAME(grow)((void **)&s->eways, sizeof(uint64_t), cap) < 0 ||
            NAME(grow)((void **)&s->enext, sizeof(int32_t), cap) < 0)
            return -1;
        s->entries_cap = cap;
    }
    if (2 * (s->entries + 1) > s->emask + 1) {
        int32_t *slots = NAME(index_of)(s, 2 * (s->emask + 1), s->entries, 1);
        if (!slots)
            return -1;
        free(s->eslots);
        s->eslots = slots;
        s->emask = 2 * s->emask + 1;
    }
    return 0;
}

/* Add ``ways`` to the state (covered, left), made if new; 0 or FAILED_*. */
static int NAME(states_add)(NAME(States) *s, MASK covered, uint32_t left, uint64_t ways)
{
    if (NAME(states_room)(s) < 0)
        return FAILED_MEMORY;
    size_t i = NAME(hash)(covered, 0) & s->gmask;
    int32_t g;
    while ((g = s->gslots[i]) >= 0 && !NAME(same)(s->covered[g], covered))
        i = (i + 1) & s->gmask;
    if (g < 0) {
        g = (int32_t)s->groups++;
        s->gslots[i] = g;
        s->covered[g] = covered;
        s->head[g] = -1;
    }
    size_t j = NAME(entry_hash)(g, left) & s->emask;
    int32_t e;
    while ((e = s->eslots[j]) >= 0 && !(s->egroup[e] == g && s->eleft[e] == left))
        j = (j + 1) & s->emask;
    if (e < 0) {
        e = (int32_t)s->entries++;
        s->eslots[j] = e;
        s->egroup[e] = g;
        s->eleft[e] = left;
        s->eways[e] = ways;
        s->enext[e] = s->head[g];
        s->head[g] = e;
        return 0;
    }
    return __builtin_add_overflow(s->eways[e], ways, &s->eways[e]) ? FAILED_OVERFLOW : 0;
}

/* A placement that overlaps nothing in a group, and whether it walls in a cell (-1: not
 * yet known; found only when a state of the group needs it). */
typedef struct {
    MASK mask;
    int walls_in;
} NAME(Fit);

/* One step of the forward count (ExactCover._place_one_more): the states after placing
 * one more piece in each of ``now``, into ``next``; 0 or FAILED_*. */
static int NAME(place_one_more)(const Problem *p, const NAME(States) *now, NAME(States) *next,
                                NAME(Fit) *fits, uint64_t *nodes)
{
    MASK area = NAME(load)(p->area);
    for (size_t g = 0; g < now->groups; g++) {
        MASK covered = now->covered[g];
        MASK empty = NAME(xor)(area, covered);
        if (NAME(is_empty)(empty))
            continue; /* (as in ways) */
        int first = NAME(lowest)(empty);
        uint32_t any_left = 0;
        for (int32_t e = now->head[g]; e >= 0; e = now->enext[e])
            any_left |= now->eleft[e];
        for (int32_t gi = p->first_group[first]; gi < p->first_group[first + 1]; gi++) {
            const Group *pg = &p->groups[gi];
            if (!(any_left & pg->bit))
                continue;
            int nfit = 0;
            for (int32_t i = pg->start; i < pg->end; i++) {
                MASK mask = NAME(load)(p->masks + (size_t)i * W);
                if (NAME(overlaps)(covered, mask))
                    continue;
                fits[nfit].mask = mask;
                fits[nfit++].walls_in = -1;
            }
            if (!nfit)
                continue;
            for (int32_t e = now->head[g]; e >= 0; e = now->enext[e]) {
                uint32_t left = now->eleft[e];
                if (!(left & pg->bit))
                    continue;
                *nodes += (uint64_t)nfit;
                uint32_t rest = left ^ pg->bit;
                int fatal = p->test_holes && !(rest & p->hole_fillers);
                for (int f = 0; f < nfit; f++) {
                    if (fatal) {
                        if (fits[f].walls_in < 0)
                            fits[f].walls_in =
                                NAME(walls_in)(p, fits[f].mask, NAME(xor)(empty, fits[f].mask));
                        if (fits[f].walls_in)
                            continue;
                    }
                    int failed =
                        NAME(states_add)(next, NAME(or)(covered, fits[f].mask), rest, now->eways[e]);
                    if (failed)
                        return failed;
                }
            }
        }
    }
    return 0;
}

/* The last step (ExactCover._place_last_two), two pieces left in every state: the ways to
 * complete the area; 0 or FAILED_*. */
static int NAME(place_last_two)(const Problem *p, const NAME(States) *now, NAME(Fit) *holes,
                                uint64_t *found, uint64_t *nodes)
{
    MASK area = NAME(load)(p->area);
    for (size_t g = 0; g < now->groups; g++) {
        MASK covered = now->covered[g];
        MASK empty = NAME(xor)(area, covered);
        if (NAME(is_empty)(empty))
            continue; /* (as in ways) */
        int first = NAME(lowest)(empty);
        uint32_t any_left = 0;
        for (int32_t e = now->head[g]; e >= 0; e = now->enext[e])
            any_left |= now->eleft[e];
        for (int32_t gi = p->first_group[first]; gi < p->first_group[first + 1]; gi++) {
            const Group *pg = &p->groups[gi];
            if (!(any_left & pg->bit))
                continue;
            int nholes = 0;
            for (int32_t i = pg->start; i < pg->end; i++) {
                MASK mask = NAME(load)(p->masks + (size_t)i * W);
                if (!NAME(overlaps)(covered, mask))
                    holes[nholes++].mask = NAME(xor)(empty, mask);
            }
            if (!nholes)
                continue;
            for (int32_t e = now->head[g]; e >= 0; e = now->enext[e]) {
                uint32_t left = now->eleft[e];
                if (!(left & pg->bit))
                    continue;
                *nodes += (uint64_t)nholes;
                int q = __builtin_ctz(left ^ pg->bit);
                for (int h = 0; h < nholes; h++) {
                    if (NAME(fits_exactly)(p, q, holes[h].mask)) {
                        (*nodes)++;
                        if (__builtin_add_overflow(*found, now->eways[e], found))
                            return FAILED_OVERFLOW;
                    }
                }
            }
        }
    }
    return 0;
}

/* Every solution counted forward, and the nodes (ExactCover._count_all), with the pieces
 * ``left`` (a bit each, at least one) to place: the others are never placed; 0 or FAILED_*. */
static int NAME(count_all)(const Problem *p, uint32_t left, uint64_t *found, uint64_t *nodes)
{
    MASK area = NAME(load)(p->area);
    int pieces = __builtin_popcount(left);
    *found = *nodes = 0;
    if (pieces == 1) { /* the only piece: it must be the whole area */
        int32_t g = p->group_of[(size_t)__builtin_ctz(left) * p->bits + NAME(lowest)(area)];
        if (g >= 0) {
            for (int32_t i = p->groups[g].start; i < p->groups[g].end; i++)
                *found += NAME(same)(NAME(load)(p->masks + (size_t)i * W), area);
            *nodes = (uint64_t)(p->groups[g].end - p->groups[g].start);
        }
        return 0;
    }
    NAME(States) a, b;
    NAME(States) *now = &a, *next = &b;
    NAME(Fit) *fits = malloc(((size_t)p->widest_group + 1) * sizeof(NAME(Fit)));
    int failed = 0;
    if (NAME(states_init)(&a) < 0 || NAME(states_init)(&b) < 0 || !fits) {
        failed = FAILED_MEMORY;
        goto done;
    }
    MASK none = {{0}};
    failed = NAME(states_add)(now, none, left, 1);
    for (int k = 0; !failed && k < pieces - 2; k++) {
        NAME(states_clear)(next);
        failed = NAME(place_one_more)(p, now, next, fits, nodes);
        NAME(States) *t = now;
        now = next;
        next = t;
    }
    if (!failed)
        failed = NAME(place_last_two)(p, now, fits, found, nodes);
done:
    NAME(states_free)(&a);
    NAME(states_free)(&b);
    free(fits);
    return failed;
}

/* --- the solutions, one at a time (ExactCover._search) ----------------------------------
 * The Python core's recursive generator, as an explicit stack that a call resumes: each
 * frame is a state and where its loop over the placements at its first empty cell stands. */

typedef struct {
    MASK covered;
    uint32_t left;
    int32_t group, group_end, next_mask; /* the loop's place: p->groups[group], its mask */
    int child;                           /* a state below this one is being searched */
    uint64_t before;                     /* solutions found when it was entered */
    MASK after;                          /* its cells covered */
    uint32_t rest;                       /* its pieces left */
} NAME(Frame);

typedef struct {
    NAME(Frame) stack[MAX_PIECES + 1];
    int depth;
    uint64_t found;
    NAME(Memo) dead; /* states with no way to finish */
} NAME(Walk);

static void NAME(enter)(const Problem *p, NAME(Frame) *f, MASK covered, uint32_t left)
{
    MASK empty = NAME(xor)(NAME(load)(p->area), covered);
    f->covered = covered;
    f->left = left;
    f->group = f->group_end = 0; /* (full with pieces left: as in ways, a dead end) */
    if (!NAME(is_empty)(empty)) {
        int first = NAME(lowest)(empty);
        f->group = p->first_group[first];
        f->group_end = p->first_group[first + 1];
    }
    f->next_mask = f->group < f->group_end ? p->groups[f->group].start : 0;
    f->child = 0;
}

/* A walk through the solutions placing the pieces ``left`` (a bit each; the others never). */
static void *NAME(walk_new)(const Problem *p, uint32_t left)
{
    NAME(Walk) *w = calloc(1, sizeof(NAME(Walk)));
    if (!w)
        return NULL;
    if (NAME(memo_init)(&w->dead) < 0) {
        free(w);
        return NULL;
    }
    MASK none = {{0}};
    NAME(enter)(p, &w->stack[0], none, left);
    w->depth = 1;
    return w;
}

static void NAME(walk_free)(void *walk)
{
    NAME(Walk) *w = walk;
    if (w)
        free(w->dead.slots);
    free(w);
}

/* Go on to the next solution: 1 with its placements in ``chosen`` (W words per piece), 0
 * when there are no more, or FAILED_MEMORY. */
static int NAME(walk_next)(const Problem *p, void *walk, uint64_t *chosen)
{
    NAME(Walk) *w = walk;
    MASK area = NAME(load)(p->area);
    while (w->depth > 0) {
        NAME(Frame) *f = &w->stack[w->depth - 1];
        if (f->child) { /* back from the state below: a dead end if it found nothing */
            f->child = 0;
            if (w->found == f->before && NAME(memo_put)(&w->dead, f->after, f->rest, 0) < 0)
                return FAILED_MEMORY;
        }
        MASK empty = NAME(xor)(area, f->covered);
        for (; f->group < f->group_end; f->group++) {
            const Group *g = &p->groups[f->group];
            /* (a cell's groups have their masks one after another: a group's loop starts
             * where the one before it ended, or at its start if that one was skipped) */
            if (f->next_mask < g->start)
                f->next_mask = g->start;
            if (!(f->left & g->bit))
                continue;
            uint32_t rest = f->left ^ g->bit;
            int holes_fatal = p->test_holes && rest && !(rest & p->hole_fillers);
            while (f->next_mask < g->end) {
                MASK mask = NAME(load)(p->masks + (size_t)f->next_mask++ * W);
                if (NAME(overlaps)(f->covered, mask))
                    continue;
                MASK after = NAME(or)(f->covered, mask);
                if (NAME(memo_find)(&w->dead, after, rest))
                    continue;
                if (holes_fatal && NAME(walls_in)(p, mask, NAME(xor)(empty, mask))) {
                    if (NAME(memo_put)(&w->dead, after, rest, 0) < 0)
                        return FAILED_MEMORY;
                    continue;
                }
                NAME(store)(chosen + (size_t)g->piece * W, mask);
                if (NAME(same)(after, area)) { /* a solution; the loop goes on from here */
                    w->found++;
                    return 1;
                }
                f->child = 1;
                f->before = w->found;
                f->after = after;
                f->rest = rest;
                NAME(enter)(p, &w->stack[w->depth++], after, rest);
                goto next_frame;
            }
        }
        w->depth--;
    next_frame:;
    }
    return 0;
}

static const Width NAME(width) = {
    W, NAME(count_to), NAME(count_all), NAME(walk_new), NAME(walk_next), NAME(walk_free),
};

#undef MASK
