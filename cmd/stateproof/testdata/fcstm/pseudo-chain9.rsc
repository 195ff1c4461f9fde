// The RSC of TestProveBudgetHoldsOnPseudoChain.
rsc "M.A": var("y") >= 0;
