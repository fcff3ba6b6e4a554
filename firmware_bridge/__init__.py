"""The serial protocol to the LED/die board, host bridge, virtual device and firmware (issue 4)."""
