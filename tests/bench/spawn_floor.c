/* The process-spawn floor: a static program that does nothing. The
 * benchmark times it beside each plugin command, so a command's cost can be
 * read as a multiple of what starting any process at all costs here. */
int main(void) { return 0; }
