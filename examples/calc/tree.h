/* SPDX-License-Identifier: MIT */
/*
 * tree.h - calc's syntax tree.  A node has a kind, the coordinates of the
 * construct, one attribute whose meaning depends on the kind (the value of
 * an integer, the idn of a name, the operator of an operation) and its
 * children.  Nodes live until tree_free(), so a monitor can browse any
 * node an event reported.
 *
 * Children by kind (their roles, as get_node_children reports them):
 *
 *   program   item...               define   value (attr: idn of the name)
 *   int       - (attr: value)       string   - (attr: idn of the text)
 *   name      - (attr: idn)         unary    operand (attr: operator)
 *   binary    left right (attr: operator; and/or are binary too)
 *   if        condition then else   let      value body (attr: idn)
 *   letfn     function body         fn       param... body (attr: idn of
 *   param     - (attr: idn)                  the name, -1 if anonymous)
 *   call      function argument...  print    argument...
 *   sequence  expression...
 */
#ifndef CALC_TREE_H
#define CALC_TREE_H

struct buf;

typedef struct node *Node;

/* Node kinds.  The numbers are part of the monitoring interface (the
 * `kind` of node_created); add new kinds at the end. */
enum node_kind {
    N_PROGRAM,
    N_DEFINE,
    N_INT,
    N_STR,
    N_NAME,
    N_UNARY,
    N_BINARY,
    N_IF,
    N_LET,
    N_LETFN,
    N_FN,
    N_PARAM,
    N_CALL,
    N_PRINT,
    N_SEQ,
    N_NKINDS
};

struct node {
    int kind;       /* enum node_kind */
    int line, col;  /* coordinates of the construct */
    long attr;      /* value, idn or operator (a token kind); see above */
    int height;     /* 1 for a leaf, else 1 + the tallest child's */
    int nkids;
    Node *kids;     /* owned */
};

Node tree_make(int kind, int line, int col, long attr, const Node *kids,
               int nkids);
const char *tree_kind_name(int kind);
const char *tree_role(Node n, int i);
const char *tree_operator(long op);
int tree_is_node(const void *p);
void tree_set_root(Node root);
Node tree_root(void);
void tree_unparse(Node n, struct buf *b);
void tree_free(void);

#ifdef MONITOR
#define DAPTO_RESULTNode(n) DAPTO_RESULT_PTR(n)
#define DAPTO_ARGNode(v) DAPTO_ARG_PTR(v, Node)
#endif

#endif /* CALC_TREE_H */
