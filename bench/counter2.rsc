// The two-node counter exits L0 with y = 2N (N = 1,000,000).
rsc "L1": y == 2000000;
