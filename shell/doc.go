// Package shell is cordon's bash-like shell evaluator.
package shell
