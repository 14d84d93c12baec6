/* SPDX-License-Identifier: MIT */
/*
 * dv.h - the data of the test program for print, frames and browsing:
 * structs with every kind of member, a list with a cycle, arrays,
 * strings, enums, bitfields, typedefs, unions and function pointers.
 */
#ifndef DV_H
#define DV_H

typedef enum color { RED, GREEN = 3, BLUE } color_t;
enum flags { F_A = 1, F_B = 2, F_C = 4 };
typedef int (*op_fn)(int);
typedef struct node node_t;

struct node {
    char name[16];
    int count;
    double weight;
    enum color c;
    int vals[4];
    union {
        int i;
        float f;
    } u;
    struct node *next;
    unsigned int flag_a : 1, flag_b : 3;
    signed int small : 5;
    struct {
        short x, y;
    } pos;
    union {
        long l;
        unsigned char bytes[8];
    };
    op_fn fn;
    const char *label;
    node_t *self;
};

/* A user type of the interface that names a typedef: opens as it. */
typedef struct node *Entry;
#define DAPTO_RESULTEntry(e) DAPTO_RESULT_PTR(e)

#endif /* DV_H */
