// Reachable state constraints of examples/fcstm/retry.fcstm, one per
// stoppable state: all provable for every execution.
rsc "Client.Idle": var("attempts") == 0 && var("backoff") == 1;
rsc "Client.Sending": var("attempts") >= 1 && var("attempts") <= 4 && var("backoff") >= 1 && var("backoff") <= 8;
rsc "Client.Waiting": var("attempts") >= 1 && var("attempts") <= 3 && var("backoff") >= 2 && var("backoff") <= 8;
rsc "Client.Failed": var("attempts") == 4;
