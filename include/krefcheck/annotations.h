/*
 * krefcheck/annotations.h - tell krefcheck what your functions do with
 * reference counts, in the source.
 *
 * Each macro is an __attribute__((annotate("krefcheck_..."))) that the
 * krefcheck analyzer plugin reads; with compilers other than clang they
 * expand to nothing, so the header is safe in any build. An annotation on a
 * declaration overrides the model files (docs/configuration.md) for that
 * function. Argument numbers count from 1, as in GCC's nonnull and format
 * attributes, and must be integer literals.
 *
 * Functions (put the macro before the declaration or after its parameter
 * list):
 *
 *   KREF_ACQUIRES(n)     takes a counted reference on argument n (foo_get)
 *   KREF_TRY_ACQUIRES(n) takes one only when it returns non-zero
 *                        (a test-for-zero get such as foo_tryget)
 *   KREF_RELEASES(n)     puts the reference argument n holds (foo_put)
 *   KREF_RETURNS_REF     returns a new counted reference (+1) the caller
 *                        must put; never fails
 *   KREF_RETURNS_REF_OR_NULL     ... or NULL on failure (foo_lookup)
 *   KREF_RETURNS_REF_OR_ERR_PTR  ... or an ERR_PTR() value on failure
 *   KREF_CONSUMES(n)     takes over the caller's reference on argument n
 *                        (the caller must not put it afterwards)
 *   KREF_BORROWS(n)      only borrows argument n: passing a reference to it
 *                        hands nothing over, and it must not put it
 *   KREF_STORES(n)       stores argument n where it outlives the call (an
 *                        index insert such as idr_alloc): a reference the
 *                        caller holds is handed over, and a get after the
 *                        store is the stored pointer's count
 *   KREF_SAME_RESULT     a getter with no side effects: on one path the same
 *                        arguments give the same result (regmap_get_device),
 *                        so two calls name one object
 *
 * KREF_RELEASES(n) combined with KREF_RETURNS_REF_OR_NULL is an iterator
 * step: it puts argument n and returns the next object (of_get_next_child).
 * Annotated get/put functions count as one family: what KREF_ACQUIRES or
 * KREF_RETURNS_REF* took, KREF_RELEASES puts.
 *
 * Counter fields:
 *
 *   KREF_STYLE_KREF         the final put is a bare decrement-and-test: an
 *                           internal (lookup) reference may only be promoted
 *                           with a test-for-zero get
 *   KREF_STYLE_KCREF(lock)  every final put takes `lock` as the count hits
 *                           zero (a global lock variable, or `foo::lock` for
 *                           the field of that struct): a plain get under
 *                           that lock is a valid promotion
 *   KREF_STYLE_PLAIN        plain increments and decrements only: the
 *                           object's lifetime is owned elsewhere
 *   KREF_REFCOUNT           the field is a reference count (an atomic_t
 *                           the translation unit does not show as one)
 */
#ifndef KREFCHECK_ANNOTATIONS_H
#define KREFCHECK_ANNOTATIONS_H

#if defined(__clang__)
#define KREF__ANNOTATE(s) __attribute__((annotate(s)))
#define KREF_ACQUIRES(n) KREF__ANNOTATE("krefcheck_acquires:" #n)
#define KREF_TRY_ACQUIRES(n) KREF__ANNOTATE("krefcheck_try_acquires:" #n)
#define KREF_RELEASES(n) KREF__ANNOTATE("krefcheck_releases:" #n)
#define KREF_RETURNS_REF KREF__ANNOTATE("krefcheck_returns_ref")
#define KREF_RETURNS_REF_OR_NULL KREF__ANNOTATE("krefcheck_returns_ref_or_null")
#define KREF_RETURNS_REF_OR_ERR_PTR                                            \
  KREF__ANNOTATE("krefcheck_returns_ref_or_err_ptr")
#define KREF_CONSUMES(n) KREF__ANNOTATE("krefcheck_consumes:" #n)
#define KREF_BORROWS(n) KREF__ANNOTATE("krefcheck_borrows:" #n)
#define KREF_STORES(n) KREF__ANNOTATE("krefcheck_stores:" #n)
#define KREF_SAME_RESULT KREF__ANNOTATE("krefcheck_same_result")
#define KREF_STYLE_KREF KREF__ANNOTATE("krefcheck_style_kref")
#define KREF_STYLE_KCREF(lock) KREF__ANNOTATE("krefcheck_style_kcref:" #lock)
#define KREF_STYLE_PLAIN KREF__ANNOTATE("krefcheck_style_plain")
#define KREF_REFCOUNT KREF__ANNOTATE("krefcheck_refcount")
#else
#define KREF_ACQUIRES(n)
#define KREF_TRY_ACQUIRES(n)
#define KREF_RELEASES(n)
#define KREF_RETURNS_REF
#define KREF_RETURNS_REF_OR_NULL
#define KREF_RETURNS_REF_OR_ERR_PTR
#define KREF_CONSUMES(n)
#define KREF_BORROWS(n)
#define KREF_STORES(n)
#define KREF_SAME_RESULT
#define KREF_STYLE_KREF
#define KREF_STYLE_KCREF(lock)
#define KREF_STYLE_PLAIN
#define KREF_REFCOUNT
#endif

#endif /* KREFCHECK_ANNOTATIONS_H */
