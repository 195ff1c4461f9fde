// A constraint examples/fcstm/retry.fcstm violates: the backoff doubles
// on every failure, so the second wait already has backoff 4.
rsc "Client.Waiting": var("backoff") == 2;
