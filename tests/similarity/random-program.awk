# random-program.awk: a C program of F functions of S random statements
# each, its shape drawn from seed (awk -v seed=N -v F=40 -v S=12 -f ...):
# independent programs share (almost) no run of 22 tokens, so a class of
# them has next to no pair to list (tests/e2e/test_similarity_memory.sh).
BEGIN {
	srand(seed)
	n = split("+ - * / % & | ^ << >> < > <= >= == !=", op, " ")
	for (f = 0; f < F; f++) {
		printf "int f%d(int a, int b)\n{\n", f
		for (s = 0; s < S; s++) {
			e = "a"
			k = 1 + int(rand() * 4)
			for (j = 0; j < k; j++)
				e = e " " op[1 + int(rand() * n)] " " (rand() < 0.5 ? "b" : int(rand() * 100))
			r = int(rand() * 4)
			if (r == 0) printf "\ta = %s;\n", e
			else if (r == 1) printf "\tif (%s)\n\t\tb++;\n", e
			else if (r == 2) printf "\twhile (%s)\n\t\ta--;\n", e
			else printf "\tb = f0(%s, a);\n", e
		}
		printf "\treturn a;\n}\n\n"
	}
}
