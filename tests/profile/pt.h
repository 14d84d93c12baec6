/* SPDX-License-Identifier: MIT */
/* pt.h - what pt's generated interface includes (nothing yet). */
#ifndef PT_H
#define PT_H
#endif
