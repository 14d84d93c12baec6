/* SPDX-License-Identifier: MIT */
/*
 * tree.h - the tree that tree.dapto describes, reduced to what its
 * operations use: nodes in a pool, sent and received as pointers of the
 * user type Node.  The programs that use the interface define the pool
 * and tree_sum (tree-main.c here, tests/noosa/tree.c for noosa).
 */
#ifndef NOOSA_TESTS_TREE_H
#define NOOSA_TESTS_TREE_H

struct tree_node {
    int value;
    struct tree_node *left;
    struct tree_node *right;
};

typedef struct tree_node *Node;

#define DAPTO_RESULTNode(n) DAPTO_RESULT_PTR(n)
#define DAPTO_ARGNode(n) DAPTO_ARG_PTR(n, Node)

/* The nodes; the first tree_nodes of them are built. */
extern struct tree_node tree_pool[];
extern int tree_nodes;

/* The sum of the values in the subtree of N. */
int tree_sum(const struct tree_node *n);

#endif /* NOOSA_TESTS_TREE_H */
