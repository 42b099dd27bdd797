"""The application: the `croupier` command, its subcommands and the one live runtime
(shoe sources → queue → journaled table → text or screen). It sits above every other
package; none of them imports it."""
