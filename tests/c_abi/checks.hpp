// What main.cpp and second.cpp share: the check macro and the second translation unit's entry.
#ifndef C_ABI_CHECKS_HPP
#define C_ABI_CHECKS_HPP

#include <cstdio>

// Counts failed checks in this translation unit; each prints where it failed.
#define CHECK(condition)                                                                 \
    do {                                                                                 \
        if (!(condition)) {                                                              \
            std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition); \
            ++failures;                                                                  \
        }                                                                                \
    } while (0)

// Runs the checks of second.cpp; returns how many failed.
int RunSecondTranslationUnit();

#endif
