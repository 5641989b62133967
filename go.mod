module github.com/rdbgen/rdbgen

go 1.26
