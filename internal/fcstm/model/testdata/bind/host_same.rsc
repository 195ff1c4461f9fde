// What host_same.fcstm keeps in each leaf: the host's initial inlet_pos (7) until the valve opens.
rsc "Plant.Inlet.Closed": inlet_pos == 7 && inlet_ops == 0;
rsc "Plant.Inlet.Opened": inlet_pos == 100 && inlet_ops == 1;
