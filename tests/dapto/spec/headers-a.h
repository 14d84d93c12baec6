/* SPDX-License-Identifier: MIT */
/* headers-a.h - included before headers-b.h, which relies on it. */
#ifndef HEADERS_A_H
#define HEADERS_A_H

#define HEADERS_A_VALUE 40

#endif /* HEADERS_A_H */
