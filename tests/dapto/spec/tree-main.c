/* SPDX-License-Identifier: MIT */
/*
 * tree-main.c - runs the code generated from tree.dapto, where the
 * specification, an aspect and one of its events are all called tree, and
 * the aspect eval has an operation eval: the stubs and encoders of both
 * events, the descriptions the runtime receives (each name where it
 * belongs), and both operations on a tree of three nodes.
 */
#include <string.h>

#include "tree_dapto.h"
#include "opcall.h"
#include "unit.h"

struct tree_node tree_pool[3];
int tree_nodes;

int tree_sum(const struct tree_node *n)
{
    if (n == NULL)
        return 0;
    return n->value + tree_sum(n->left) + tree_sum(n->right);
}

int main(void)
{
    const struct dapto_aspect *tree = &tree_dapto_aspect_tree;
    const struct dapto_aspect *eval = &tree_dapto_aspect_eval;
    Node root = &tree_pool[0];
    struct opcall c;
    int other = 0;

    tree_pool[1].value = 2;
    tree_pool[2].value = 3;
    root->value = 1;
    root->left = &tree_pool[1];
    root->right = &tree_pool[2];
    tree_nodes = 3;

    /* With no monitor the events are off: the stubs do nothing. */
    CHECK(tree_dapto_state[0] == DAPTO_STATE_OFF);
    CHECK(tree_dapto_state[1] == DAPTO_STATE_OFF);
    _dapto_tree(root, 3, "tree-main");
    _dapto_attribute(root, "sum", 6);
    tree_dapto_emit_tree(root, 3, "tree-main");
    tree_dapto_emit_attribute(root, "sum", 6);

    /* The aspect tree and its event tree, each described as itself. */
    CHECK(strcmp(tree->name, "tree") == 0);
    CHECK(strcmp(tree->file, "tree.dapto") == 0);
    CHECK_EQ_INT(tree->nevents, 2);
    CHECK_EQ_INT(tree->nops, 1);
    CHECK(strcmp(tree->events[0].name, "tree") == 0);
    CHECK_EQ_INT(tree->events[0].nparams, 3);
    CHECK(strcmp(tree->events[0].params[0].name, "root") == 0);
    CHECK(strcmp(tree->events[0].params[0].type, "Node") == 0);
    CHECK_EQ_INT(tree->events[0].params[0].kind, DAPTO_K_USER);
    CHECK(strcmp(tree->events[0].params[2].name, "source") == 0);
    CHECK(tree->events[0].state == &tree_dapto_state[0]);
    CHECK(strcmp(tree->events[1].name, "attribute") == 0);
    CHECK(tree->events[1].state == &tree_dapto_state[1]);
    CHECK(strcmp(tree->ops[0].name, "size") == 0);

    /* The aspect eval: no event, its operation eval. */
    CHECK(strcmp(eval->name, "eval") == 0);
    CHECK_EQ_INT(eval->nevents, 0);
    CHECK(eval->events == NULL);
    CHECK_EQ_INT(eval->nops, 1);
    CHECK(strcmp(eval->ops[0].name, "eval") == 0);
    CHECK_EQ_INT(eval->ops[0].nparams, 1);
    CHECK(opcall_find(tree, "eval") == NULL);
    CHECK(opcall_find(eval, "size") == NULL);

    opcall_begin(&c);
    CHECK_EQ_INT(opcall_run(&c, tree, "size"), 0);
    CHECK_EQ_INT(dapto_get_int(&c.results), 3);

    opcall_begin(&c);
    dapto_put_ptr(&c.args, root);
    CHECK_EQ_INT(opcall_run(&c, eval, "eval"), 0);
    CHECK_EQ_INT(dapto_get_int(&c.results), 6);
    opcall_begin(&c);
    dapto_put_ptr(&c.args, &tree_pool[2]);
    CHECK_EQ_INT(opcall_run(&c, eval, "eval"), 0);
    CHECK_EQ_INT(dapto_get_int(&c.results), 3);

    /* An address that is not a node is refused, and says why. */
    opcall_begin(&c);
    dapto_put_ptr(&c.args, &other);
    CHECK_EQ_INT(opcall_run(&c, eval, "eval"), 1);
    CHECK(strcmp(c.req.message, "not a node of the tree") == 0);
    CHECK_EQ_INT(c.res.count, 0);
    return unit_done("tree");
}
