/* fakeclang.sh hangs on this file. */
int y;
