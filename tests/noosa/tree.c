/* SPDX-License-Identifier: MIT */
/*
 * tree.c - a program with the interface tests/dapto/spec/tree.dapto, where
 * an aspect and its event are both called tree, for the end-to-end test
 * names.sh.  It builds a tree of three nodes and says so (event tree,
 * with the first argument as its source), computes the sum of each
 * subtree, children first (event attribute), and prints the root's.
 */
#include <stdio.h>

#include "tree_dapto.h"

struct tree_node tree_pool[3];
int tree_nodes;

int tree_sum(const struct tree_node *n)
{
    if (n == NULL)
        return 0;
    return n->value + tree_sum(n->left) + tree_sum(n->right);
}

int main(int argc, char **argv)
{
    Node root = &tree_pool[0];
    static const int order[] = { 1, 2, 0 };

    for (int i = 0; i < 3; i++)
        tree_pool[i].value = i + 1;
    root->left = &tree_pool[1];
    root->right = &tree_pool[2];
    tree_nodes = 3;
    _dapto_tree(root, tree_nodes, argc > 1 ? argv[1] : "built in");
    for (int i = 0; i < 3; i++) {
        Node n = &tree_pool[order[i]];

        _dapto_attribute(n, "sum", tree_sum(n));
    }
    printf("sum %d\n", tree_sum(root));
    return 0;
}
