/* SPDX-License-Identifier: MIT */
/* headers-b.h - needs headers-a.h first: the order of header lines counts. */
#ifndef HEADERS_B_H
#define HEADERS_B_H

#ifndef HEADERS_A_H
#error "headers-a.h must be included before headers-b.h"
#endif

#define HEADERS_B_VALUE (HEADERS_A_VALUE + 2)

#endif /* HEADERS_B_H */
