package main

// maxHeldBytes is the decoder's Options.MaxHeldBytes for every input (0: its default). No
// input is held, since each can be read twice; the tests lower it to show that.
var maxHeldBytes = 0
