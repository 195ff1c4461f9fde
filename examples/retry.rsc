// Reachable state constraints of examples/retry.json, one per state.
rsc "IDLE": retry == 0;
rsc "WAIT": retry >= 0 && retry <= 3;
rsc "FAILED": retry == 3;
