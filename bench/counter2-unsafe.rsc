// The unsafe variant exits early (x >= 3), so y = 2N fails on exit.
rsc "L1": y == 2000000;
