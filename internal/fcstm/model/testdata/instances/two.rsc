// What two.fcstm keeps in each leaf: B's counter stays 0 while A counts.
rsc "Plant.A.Counting": B_p == 0 && A_p >= 0;
rsc "Plant.B.Counting": A_p >= 0 && B_p >= 0;
